package io.aigw.plugin.xai;

import io.aigw.spi.ProviderPlugin;
import io.aigw.tck.ProviderPluginTck;

/** The plugin TCK, run against this plugin's build as a third party's plugin runs it. */
class XaiPluginTest extends ProviderPluginTck {

    @Override
    protected ProviderPlugin newPlugin() {
        return new XaiPlugin();
    }
}
