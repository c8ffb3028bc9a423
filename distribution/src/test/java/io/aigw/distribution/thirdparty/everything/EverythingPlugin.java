package io.aigw.distribution.thirdparty.everything;

import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;

/** A second catch-all, which cannot be installed beside OpenRouter's. */
public final class EverythingPlugin implements ProviderPlugin {

    @Override
    public ProviderDescriptor descriptor() {
        return ProviderDescriptor.builder("everything")
                .stripsPrefix(false)
                .catchAll(true)
                .defaultModel("everything/auto")
                .baseUrl("https://api.everything.example/v1")
                .apiKeyVariable("EVERYTHING_API_KEY")
                .baseUrlVariable("EVERYTHING_BASE_URL")
                .build();
    }
}
