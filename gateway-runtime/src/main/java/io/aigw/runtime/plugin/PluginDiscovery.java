package io.aigw.runtime.plugin;

import io.aigw.spi.ProviderPlugin;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Finds the installed provider plugins with {@link ServiceLoader}: on the module path every module
 * that {@code provides} {@link ProviderPlugin}, on a class path every
 * {@code META-INF/services} registration. A plugin that fails to load, or was built against a newer
 * SPI than the gateway's, is reported and skipped, so one broken jar does not take the others down.
 */
public final class PluginDiscovery {
    private static final System.Logger LOG = System.getLogger(PluginDiscovery.class.getName());

    private PluginDiscovery() {
    }

    /** Returns every plugin that loaded, in discovery order. */
    public static List<DiscoveredPlugin> discover() {
        List<DiscoveredPlugin> found = new ArrayList<>();
        Iterator<ProviderPlugin> plugins = ServiceLoader.load(ProviderPlugin.class).iterator();
        while (true) {
            try {
                if (!plugins.hasNext()) {
                    break;
                }
                ProviderPlugin plugin = plugins.next();
                DiscoveredPlugin discovered = DiscoveredPlugin.of(plugin);
                SpiCompatibility.refusal(plugin.getClass().getModule(), discovered.source())
                        .ifPresentOrElse(reason -> LOG.log(Level.ERROR, reason), () -> found.add(discovered));
            } catch (ServiceConfigurationError e) {
                LOG.log(Level.ERROR, "A provider plugin failed to load and is skipped: " + e.getMessage(), e);
            }
        }
        if (found.isEmpty()) {
            LOG.log(Level.WARNING, "No provider plugins were found, so no model can be routed. Put plugin jars"
                    + " in the distribution's plugins/ folder (or on the module path).");
        }
        return found;
    }
}
