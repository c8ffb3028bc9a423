package io.aigw.plugin.gemini;

import io.aigw.spi.ProviderPlugin;
import io.aigw.tck.ProviderPluginTck;

/** The plugin TCK, run against this plugin's build as a third party's plugin runs it. */
class GeminiPluginTest extends ProviderPluginTck {

    @Override
    protected ProviderPlugin newPlugin() {
        return new GeminiPlugin();
    }
}
