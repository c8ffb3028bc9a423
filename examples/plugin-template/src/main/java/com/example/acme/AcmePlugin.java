package com.example.acme;

import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import java.net.URL;
import java.util.Optional;

/**
 * Acme's models, asked for as {@code acme/<model>} and sent to Acme's OpenAI-compatible API as
 * {@code <model>}. The plugin declares; the gateway makes the calls.
 */
public final class AcmePlugin implements ProviderPlugin {

    @Override
    public ProviderDescriptor descriptor() {
        return ProviderDescriptor.builder("acme")
                .defaultModel("acme-large")
                .priority(10)
                .baseUrl("https://api.acme.example/v1")
                .apiKeyVariable("ACME_API_KEY")
                .baseUrlVariable("ACME_BASE_URL")
                .build();
    }

    /** The catalogue beside this class: from the class itself, since a module's resources are its own. */
    @Override
    public Optional<URL> catalogue() {
        return Optional.ofNullable(AcmePlugin.class.getResource("models.json"));
    }
}
