package io.aigw.plugin.gemini;

import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import java.net.URL;
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
}
