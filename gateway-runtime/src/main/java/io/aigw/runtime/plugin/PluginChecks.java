package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import io.aigw.spi.UpstreamApi;
import java.net.URL;
import java.util.Collection;
import java.util.Collections;
import java.util.EnumMap;
import java.util.EnumSet;
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
     * @param apis              each API the upstream serves, with its path under the base URL
     * @param homeFor           the APIs whose model ids without a provider go to this plugin
     */
    record Declarations(ProviderDescriptor descriptor, Optional<URL> catalogue, Map<String, String> extraHeaders,
                        Set<String> unsupportedFields, Map<UpstreamApi, String> apis, Set<UpstreamApi> homeFor) {
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
        Map<UpstreamApi, String> apis = answered(source, "apis()", calls.ask(source, "apis()",
                () -> copyOrNull(plugin.apis())));
        Set<UpstreamApi> homeFor = answered(source, "homeFor()", calls.ask(source, "homeFor()",
                () -> copyOrNull(plugin.homeFor())));
        if (hasNull(headers.keySet()) || hasNull(headers.values()) || hasNull(fields) || hasNull(apis.values())) {
            throw new ConfigurationException("The plugin " + source + " is refused: what it declares cannot be used:"
                    + " its extraHeaders(), unsupportedFields() or apis() holds a null.");
        }
        requireUsableApis(source, apis, homeFor);
        return new Declarations(descriptor, catalogue, headers, fields, apis, homeFor);
    }

    /** Every path is one the gateway can append to a base URL, and a plugin is home only for an API it serves. */
    private static void requireUsableApis(String source, Map<UpstreamApi, String> apis, Set<UpstreamApi> homeFor) {
        apis.forEach((api, path) -> {
            if (!isPath(path)) {
                throw new ConfigurationException("The plugin " + source + " is refused: its apis() gives " + api
                        + " the path '" + path + "', which is not a path to append to a base URL: it starts with"
                        + " '/' and holds letters, digits and -._~/ only.");
            }
        });
        if (!apis.containsKey(UpstreamApi.CHAT_COMPLETIONS)) {
            throw new ConfigurationException("The plugin " + source + " is refused: its apis() leaves out "
                    + UpstreamApi.CHAT_COMPLETIONS + ", which every provider serves.");
        }
        for (UpstreamApi api : homeFor) {
            if (!apis.containsKey(api)) {
                throw new ConfigurationException("The plugin " + source + " is refused: its homeFor() names " + api
                        + ", which its apis() does not serve.");
            }
        }
    }

    private static boolean isPath(String path) {
        return path.length() > 1 && path.charAt(0) == '/' && path.chars().allMatch(c -> (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~/".indexOf(c) >= 0);
    }

    private static <T> T answered(String source, String call, T declared) {
        if (declared == null) {
            throw new ConfigurationException("The plugin " + source + " is refused: its " + call + " returned null.");
        }
        return declared;
    }

    /** The plugin's map in the gateway's own; null when it is null or has a null key, as {@code Map.of()} cannot be asked. */
    private static Map<UpstreamApi, String> copyOrNull(Map<UpstreamApi, String> declared) {
        if (declared == null) {
            return null;
        }
        Map<UpstreamApi, String> copy = new EnumMap<>(UpstreamApi.class);
        for (Map.Entry<UpstreamApi, String> entry : declared.entrySet()) {
            if (entry.getKey() == null) {
                return null;
            }
            copy.put(entry.getKey(), entry.getValue());
        }
        return Collections.unmodifiableMap(copy);
    }

    private static Set<UpstreamApi> copyOrNull(Set<UpstreamApi> declared) {
        if (declared == null) {
            return null;
        }
        Set<UpstreamApi> copy = EnumSet.noneOf(UpstreamApi.class);
        for (UpstreamApi api : declared) {
            if (api == null) {
                return null;
            }
            copy.add(api);
        }
        return Collections.unmodifiableSet(copy);
    }

    private static boolean hasNull(Collection<String> values) {
        return values.stream().anyMatch(value -> value == null);
    }
}
