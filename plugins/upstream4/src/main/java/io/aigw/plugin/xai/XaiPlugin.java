package io.aigw.plugin.xai;

import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import io.aigw.spi.UpstreamApi;
import java.net.URL;
import java.util.Map;
import java.util.Optional;

/** xAI's Grok models; xAI's API speaks the OpenAI wire format natively. */
public final class XaiPlugin implements ProviderPlugin {

    @Override
    public ProviderDescriptor descriptor() {
        return ProviderDescriptor.builder("xai")
                .defaultModel("grok-4")
                .priority(4)
                .baseUrl("https://api.x.ai/v1")
                .apiKeyVariable("XAI_API_KEY")
                .baseUrlVariable("XAI_BASE_URL")
                .build();
    }

    @Override
    public Optional<URL> catalogue() {
        return Optional.ofNullable(XaiPlugin.class.getResource("models.json"));
    }

    /** xAI serves the Responses API beside chat completions. */
    @Override
    public Map<UpstreamApi, String> apis() {
        return Map.of(UpstreamApi.CHAT_COMPLETIONS, UpstreamApi.CHAT_COMPLETIONS.defaultPath(),
                UpstreamApi.RESPONSES, UpstreamApi.RESPONSES.defaultPath());
    }
}
