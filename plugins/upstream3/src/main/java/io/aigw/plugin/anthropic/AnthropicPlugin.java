package io.aigw.plugin.anthropic;

import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import java.net.URL;
import java.util.Optional;

/** Anthropic's Claude models through Anthropic's OpenAI SDK compatibility endpoint. */
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
}
