package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.spi.ProviderPlugin;
import java.util.function.Supplier;

/**
 * Asks a plugin once, as it is loaded, for everything the gateway reads from it, so that a plugin
 * that throws (an invalid descriptor, a hook that fails, a class its jar lacks) is refused with its
 * name instead of failing later, halfway through building a routing table.
 */
final class PluginChecks {

    private PluginChecks() {
    }

    /**
     * @param source names the plugin and its jar
     * @throws ConfigurationException naming the plugin and the call that failed
     */
    static void requireDeclarations(ProviderPlugin plugin, String source) {
        ask(source, "descriptor()", plugin::descriptor);
        ask(source, "catalogue()", plugin::catalogue);
        ask(source, "extraHeaders()", plugin::extraHeaders);
        ask(source, "unsupportedFields()", plugin::unsupportedFields);
    }

    private static void ask(String source, String call, Supplier<?> declaration) {
        Object declared;
        try {
            declared = declaration.get();
        } catch (RuntimeException | LinkageError e) {
            throw new ConfigurationException("The plugin " + source + " is refused: its " + call + " failed: " + e);
        }
        if (declared == null) {
            throw new ConfigurationException("The plugin " + source + " is refused: its " + call + " returned null.");
        }
    }
}
