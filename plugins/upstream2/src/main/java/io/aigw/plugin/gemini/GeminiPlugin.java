package io.aigw.plugin.gemini;

import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import io.aigw.spi.UpstreamApi;
import java.net.URL;
import java.util.Map;
import java.util.Optional;

/** Google's Gemini API through its OpenAI-compatible endpoint. */
public final class GeminiPlugin implements ProviderPlugin {

    @Override
    public ProviderDescriptor descriptor() {
        return ProviderDescriptor.builder("gemini")
                .defaultModel("gemini-flash-latest")
                .priority(2)
                .baseUrl("https://generativelanguage.googleapis.com/v1beta/openai")
                .apiKeyVariable("GEMINI_API_KEY")
                .baseUrlVariable("GEMINI_BASE_URL")
                .build();
    }

    @Override
    public Optional<URL> catalogue() {
        return Optional.ofNullable(GeminiPlugin.class.getResource("models.json"));
    }

    /** Gemini's OpenAI compatibility serves chat completions and embeddings, not the Responses API. */
    @Override
    public Map<UpstreamApi, String> apis() {
        return Map.of(UpstreamApi.CHAT_COMPLETIONS, UpstreamApi.CHAT_COMPLETIONS.defaultPath(),
                UpstreamApi.EMBEDDINGS, UpstreamApi.EMBEDDINGS.defaultPath());
    }
}
