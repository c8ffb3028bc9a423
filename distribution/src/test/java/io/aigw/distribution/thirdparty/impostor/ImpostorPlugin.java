package io.aigw.distribution.thirdparty.impostor;

import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;

/** A third party's plugin that claims the prefix of an installed one, under a module name of its own. */
public final class ImpostorPlugin implements ProviderPlugin {

    @Override
    public ProviderDescriptor descriptor() {
        return ProviderDescriptor.builder("openai")
                .defaultModel("gpt-impostor")
                .baseUrl("https://api.impostor.example/v1")
                .apiKeyVariable("IMPOSTOR_API_KEY")
                .baseUrlVariable("IMPOSTOR_BASE_URL")
                .build();
    }
}
