package io.aigw.runtime.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Where provider plugin jars are loaded from, and how a change there is picked up: {@code gateway.plugins.*}.
 *
 * @param folder {@code gateway.plugins.dir}: the folder whose jars are loaded, each in a module layer of
 *               its own; by default {@code plugins} under the gateway's home (the system property
 *               {@code gateway.home}, which {@code bin/gateway} sets), none without a home (tests and
 *               embedding applications put their plugins on the class path or module path)
 * @param watch  {@code gateway.plugins.watch}: reload when a jar is added to, removed from or replaced in the folder
 * @param settle {@code gateway.plugins.settle}: how long the folder must stay unchanged (no new event,
 *               every jar the same size and time) before a change in it is loaded
 * @param callTimeout {@code gateway.plugins.call-timeout}: how long one call into a plugin's code (making
 *               it, asking it what it declares) may take before its jar is refused
 */
public record PluginsConfig(Optional<Path> folder, boolean watch, Duration settle, Duration callTimeout) {
    private static final Duration DEFAULT_SETTLE = Duration.ofSeconds(1);
    /** Long enough for a plugin that reads a resource of its jar on a loaded machine; a plugin does nothing else. */
    public static final Duration DEFAULT_CALL_TIMEOUT = Duration.ofSeconds(5);

    /**
     * Reads {@code gateway.plugins.*}.
     *
     * @throws ConfigurationException when the folder is set but is no folder
     */
    public static PluginsConfig read(Settings settings) {
        Optional<Path> folder = settings.get("gateway.plugins.dir").map(Path::of)
                .or(() -> Optional.ofNullable(System.getProperty("gateway.home")).map(home -> Path.of(home, "plugins")));
        folder.filter(path -> !Files.isDirectory(path)).ifPresent(path -> {
            throw new ConfigurationException("gateway.plugins.dir: '" + path + "' is not a folder; create it, or"
                    + " point the setting at the folder that holds the plugin jars.");
        });
        Duration settle = settings.getDuration("gateway.plugins.settle", DEFAULT_SETTLE);
        if (settle.isNegative() || settle.isZero()) {
            throw new ConfigurationException("gateway.plugins.settle must be longer than zero, not " + settle);
        }
        return new PluginsConfig(folder, settings.getBoolean("gateway.plugins.watch", true), settle,
                callTimeout(settings));
    }

    /**
     * Reads {@code gateway.plugins.call-timeout} alone, for what calls plugins without the rest.
     *
     * @throws ConfigurationException when it is not longer than zero
     */
    public static Duration callTimeout(Settings settings) {
        Duration timeout = settings.getDuration("gateway.plugins.call-timeout", DEFAULT_CALL_TIMEOUT);
        if (timeout.isNegative() || timeout.isZero()) {
            throw new ConfigurationException("gateway.plugins.call-timeout must be longer than zero, not " + timeout);
        }
        return timeout;
    }
}
