package io.aigw.distribution.thirdparty.acme;

import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * A third party's plugin whose jar says which default model it declares ({@code acme.properties}
 * beside the class), so that a test can build two versions of it from this one class. First in
 * {@code gateway/auto}'s chain.
 */
public final class AcmePlugin implements ProviderPlugin {

    @Override
    public ProviderDescriptor descriptor() {
        return ProviderDescriptor.builder("acme")
                .defaultModel(defaultModel())
                .priority(0)
                .baseUrl("https://api.acme.example/v1")
                .apiKeyVariable("ACME_API_KEY")
                .baseUrlVariable("ACME_BASE_URL")
                .build();
    }

    private static String defaultModel() {
        try (InputStream in = AcmePlugin.class.getResourceAsStream("acme.properties")) {
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("default-model");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
