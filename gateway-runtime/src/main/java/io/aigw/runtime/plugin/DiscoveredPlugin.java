package io.aigw.runtime.plugin;

import io.aigw.spi.ProviderPlugin;
import java.nio.file.Path;
import java.security.CodeSource;

/**
 * A plugin found, beside the gateway's classes or in the plugins folder, and where it came from.
 *
 * @param source the plugin's jar file name, or its class name when it has no jar (tests)
 */
public record DiscoveredPlugin(ProviderPlugin plugin, String source) {

    /** Describes a plugin instance by the jar it was loaded from. */
    public static DiscoveredPlugin of(ProviderPlugin plugin) {
        return new DiscoveredPlugin(plugin, sourceOf(plugin.getClass()));
    }

    private static String sourceOf(Class<?> type) {
        CodeSource code = type.getProtectionDomain().getCodeSource();
        if (code == null || code.getLocation() == null) {
            return type.getName();
        }
        try {
            Path path = Path.of(code.getLocation().toURI());
            String file = path.getFileName().toString();
            return file.endsWith(".jar") ? file + " (" + type.getName() + ")" : type.getName();
        } catch (Exception e) {
            return type.getName();
        }
    }
}
