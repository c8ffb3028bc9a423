package io.aigw.plugin.openrouter;

import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import io.aigw.spi.UpstreamApi;
import java.net.URL;
import java.util.Map;
import java.util.Optional;

/**
 * OpenRouter, the catch-all: it serves every prefix no other plugin claims and receives model ids
 * unchanged ({@code meta-llama/llama-3-8b}, {@code openrouter/auto}).
 */
public final class OpenRouterPlugin implements ProviderPlugin {

    @Override
    public ProviderDescriptor descriptor() {
        return ProviderDescriptor.builder("openrouter")
                .stripsPrefix(false)
                .catchAll(true)
                .defaultModel("openrouter/auto")
                .priority(5)
                .baseUrl("https://openrouter.ai/api/v1")
                .apiKeyVariable("OPENROUTER_API_KEY")
                .baseUrlVariable("OPENROUTER_BASE_URL")
                .build();
    }

    @Override
    public Optional<URL> catalogue() {
        return Optional.ofNullable(OpenRouterPlugin.class.getResource("models.json"));
    }

    /** OpenRouter's app attribution; an operator sets their own under {@code providers.openrouter.headers}. */
    @Override
    public Map<String, String> extraHeaders() {
        return Map.of("X-Title", "aigw");
    }

    /** OpenRouter serves the OpenAI APIs and an Anthropic-compatible Messages API, for every model it routes. */
    @Override
    public Map<UpstreamApi, String> apis() {
        return Map.of(UpstreamApi.CHAT_COMPLETIONS, UpstreamApi.CHAT_COMPLETIONS.defaultPath(),
                UpstreamApi.RESPONSES, UpstreamApi.RESPONSES.defaultPath(),
                UpstreamApi.EMBEDDINGS, UpstreamApi.EMBEDDINGS.defaultPath(),
                UpstreamApi.MESSAGES, UpstreamApi.MESSAGES.defaultPath());
    }
}
