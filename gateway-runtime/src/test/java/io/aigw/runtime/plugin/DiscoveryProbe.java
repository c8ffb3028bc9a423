package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ConfigurationException;

/** Run by {@link SpiCompatibilityTest} in a JVM of its own: prints the prefix of every plugin discovery found, or its refusal. */
public final class DiscoveryProbe {

    private DiscoveryProbe() {
    }

    public static void main(String[] arguments) {
        try {
            PluginDiscovery.discover().forEach(found -> System.out.println("found " + found.plugin().descriptor().prefix()));
        } catch (ConfigurationException e) {
            System.out.println("refused: " + e.getMessage());
        }
    }
}
