package io.aigw.runtime.plugin;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The plugins one routing table is built from: those found on the class path or module path at
 * start, which stay as long as the gateway runs, and the jars of the plugins folder as one load
 * found them. Holding it keeps the jars' class loaders alive.
 *
 * @param fixed the plugins found at start beside the gateway's own classes
 * @param jars  the jars loaded from the plugins folder, by file name
 */
public record PluginSet(List<DiscoveredPlugin> fixed, List<LoadedJar> jars) {

    public PluginSet {
        fixed = List.copyOf(fixed);
        jars = List.copyOf(jars);
    }

    /** Every plugin, those found at start first. */
    public List<DiscoveredPlugin> all() {
        return Stream.concat(fixed.stream(), jars.stream().flatMap(jar -> jar.plugins().stream())).toList();
    }

    /** The folder's jar a plugin came from, by the plugin's {@link DiscoveredPlugin#source()}; empty for a fixed one. */
    public Optional<LoadedJar> jarOf(String source) {
        return jars.stream()
                .filter(jar -> jar.plugins().stream().anyMatch(plugin -> plugin.source().equals(source)))
                .findFirst();
    }
}
