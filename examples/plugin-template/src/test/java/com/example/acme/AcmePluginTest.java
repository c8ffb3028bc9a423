package com.example.acme;

import io.aigw.spi.ProviderPlugin;
import io.aigw.tck.ProviderPluginTck;

/** Runs the gateway's plugin TCK against this plugin. */
class AcmePluginTest extends ProviderPluginTck {

    @Override
    protected ProviderPlugin newPlugin() {
        return new AcmePlugin();
    }
}
