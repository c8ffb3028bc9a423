package io.aigw.runtime.plugin;

/** Run by {@link SpiCompatibilityTest} in a JVM of its own: prints the prefix of every plugin discovery kept. */
public final class DiscoveryProbe {

    private DiscoveryProbe() {
    }

    public static void main(String[] arguments) {
        PluginDiscovery.discover().forEach(found -> System.out.println("kept " + found.plugin().descriptor().prefix()));
    }
}
