package io.aigw.runtime.acme;

import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import java.net.URL;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A third party's plugin, none of the five shipped ones, written against the SPI alone and found
 * through {@code META-INF/services} like any plugin jar on a class path. Every runtime test
 * discovers it, so it stays an ordinary provider: no catch-all, and without {@code ACME_API_KEY}
 * {@code gateway/auto} skips it.
 */
public final class AcmePlugin implements ProviderPlugin {

    @Override
    public ProviderDescriptor descriptor() {
        return ProviderDescriptor.builder("acme")
                .defaultModel("big-model")
                .priority(50)
                .baseUrl("https://api.acme.example/v1")
                .apiKeyVariable("ACME_API_KEY")
                .baseUrlVariable("ACME_BASE_URL")
                .build();
    }

    @Override
    public Optional<URL> catalogue() {
        return Optional.ofNullable(AcmePlugin.class.getResource("models.json"));
    }

    @Override
    public Map<String, String> extraHeaders() {
        return Map.of("Acme-Version", "2026-01-01");
    }

    @Override
    public Set<String> unsupportedFields() {
        return Set.of("logit_bias");
    }
}
