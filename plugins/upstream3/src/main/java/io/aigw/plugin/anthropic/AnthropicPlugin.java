package io.aigw.plugin.anthropic;

import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import io.aigw.spi.UpstreamApi;
import java.net.URL;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** Anthropic's Claude models: chat completions through Anthropic's OpenAI SDK compatibility endpoint, and the Messages API. */
public final class AnthropicPlugin implements ProviderPlugin {

    @Override
    public ProviderDescriptor descriptor() {
        return ProviderDescriptor.builder("anthropic")
                .defaultModel("claude-haiku-4-5")
                .priority(3)
                .baseUrl("https://api.anthropic.com/v1")
                .apiKeyVariable("ANTHROPIC_API_KEY")
                .baseUrlVariable("ANTHROPIC_BASE_URL")
                .build();
    }

    @Override
    public Optional<URL> catalogue() {
        return Optional.ofNullable(AnthropicPlugin.class.getResource("models.json"));
    }

    /** Chat completions through Anthropic's OpenAI SDK compatibility; its own Messages API natively. */
    @Override
    public Map<UpstreamApi, String> apis() {
        return Map.of(UpstreamApi.CHAT_COMPLETIONS, UpstreamApi.CHAT_COMPLETIONS.defaultPath(),
                UpstreamApi.MESSAGES, UpstreamApi.MESSAGES.defaultPath());
    }

    /** Claude Code and the Anthropic SDKs ask for bare ids such as {@code claude-sonnet-4-5-20250929}. */
    @Override
    public Set<UpstreamApi> homeFor() {
        return Set.of(UpstreamApi.MESSAGES);
    }
}
