package io.aigw.runtime.plugin;

import java.util.List;
import java.util.Optional;

/**
 * A jar of the plugins folder, loaded in a class loader of its own: the loader of a module layer
 * whose parent is the SPI's, or, when the gateway itself runs on the class path, a class loader
 * whose parent is the SPI's. Nothing but the jar's plugins use it, so it is collected, and its
 * classes unloaded, once no routing snapshot holds them.
 *
 * @param version its module's version, or else its manifest's {@code Implementation-Version}
 * @param plugins the {@code ProviderPlugin} implementations it provides, at least one
 */
public record LoadedJar(PluginJar jar, Optional<String> version, ClassLoader loader, List<DiscoveredPlugin> plugins) {
}
