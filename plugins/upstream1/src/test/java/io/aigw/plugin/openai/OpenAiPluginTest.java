package io.aigw.plugin.openai;

import io.aigw.spi.ProviderPlugin;
import io.aigw.tck.ProviderPluginTck;

/** The plugin TCK, run against this plugin's build as a third party's plugin runs it. */
class OpenAiPluginTest extends ProviderPluginTck {

    @Override
    protected ProviderPlugin newPlugin() {
        return new OpenAiPlugin();
    }
}
