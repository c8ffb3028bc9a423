package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import java.net.URL;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Asks a plugin for everything the gateway reads from it, each call bounded in time
 * ({@link PluginCalls}), so that a plugin that throws (an invalid descriptor, a hook that fails, a
 * class its jar lacks), hangs or spins is refused with its name instead of failing later, halfway
 * through building a routing table, or stopping the thread that asked. What it answers is copied
 * into the gateway's own collections on the plugin's thread: a plugin's own map or set runs the
 * plugin's code on every read.
 */
final class PluginChecks {

    private PluginChecks() {
    }

    /**
     * What a plugin declares, as it answered once.
     *
     * @param extraHeaders      in the plugin's order
     * @param unsupportedFields in the plugin's order
     */
    record Declarations(ProviderDescriptor descriptor, Optional<URL> catalogue, Map<String, String> extraHeaders,
                        Set<String> unsupportedFields) {
    }

    /**
     * @param source names the plugin and its jar
     * @throws ConfigurationException naming the plugin and the call that failed or did not return in time
     */
    static Declarations declarations(ProviderPlugin plugin, String source, PluginCalls calls) {
        ProviderDescriptor descriptor = answered(source, "descriptor()",
                calls.ask(source, "descriptor()", plugin::descriptor));
        Optional<URL> catalogue = answered(source, "catalogue()", calls.ask(source, "catalogue()", plugin::catalogue));
        Map<String, String> headers = answered(source, "extraHeaders()", calls.ask(source, "extraHeaders()", () -> {
            Map<String, String> declared = plugin.extraHeaders();
            return declared == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(declared));
        }));
        Set<String> fields = answered(source, "unsupportedFields()", calls.ask(source, "unsupportedFields()", () -> {
            Set<String> declared = plugin.unsupportedFields();
            return declared == null ? null : Collections.unmodifiableSet(new LinkedHashSet<>(declared));
        }));
        if (hasNull(headers.keySet()) || hasNull(headers.values()) || hasNull(fields)) {
            throw new ConfigurationException("The plugin " + source + " is refused: what it declares cannot be used:"
                    + " its extraHeaders() or unsupportedFields() holds a null.");
        }
        return new Declarations(descriptor, catalogue, headers, fields);
    }

    private static <T> T answered(String source, String call, T declared) {
        if (declared == null) {
            throw new ConfigurationException("The plugin " + source + " is refused: its " + call + " returned null.");
        }
        return declared;
    }

    private static boolean hasNull(Collection<String> values) {
        return values.stream().anyMatch(value -> value == null);
    }
}
