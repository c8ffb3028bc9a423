package io.aigw.plugin.openai;

import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import io.aigw.spi.UpstreamApi;
import java.net.URL;
import java.util.Map;
import java.util.Optional;

/** OpenAI's Chat Completions API; model ids reach it without the {@code openai/} prefix. */
public final class OpenAiPlugin implements ProviderPlugin {

    @Override
    public ProviderDescriptor descriptor() {
        return ProviderDescriptor.builder("openai")
                .defaultModel("gpt-5")
                .priority(1)
                .baseUrl("https://api.openai.com/v1")
                .apiKeyVariable("OPENAI_API_KEY")
                .baseUrlVariable("OPENAI_BASE_URL")
                .build();
    }

    @Override
    public Optional<URL> catalogue() {
        return Optional.ofNullable(OpenAiPlugin.class.getResource("models.json"));
    }

    /** OpenAI serves all three of its APIs at their own paths. */
    @Override
    public Map<UpstreamApi, String> apis() {
        return Map.of(UpstreamApi.CHAT_COMPLETIONS, UpstreamApi.CHAT_COMPLETIONS.defaultPath(),
                UpstreamApi.RESPONSES, UpstreamApi.RESPONSES.defaultPath(),
                UpstreamApi.EMBEDDINGS, UpstreamApi.EMBEDDINGS.defaultPath());
    }
}
