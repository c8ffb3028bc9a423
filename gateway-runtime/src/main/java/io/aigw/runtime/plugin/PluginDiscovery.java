package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.PluginsConfig;
import io.aigw.spi.ProviderPlugin;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * Finds the provider plugins that sit beside the gateway's own classes, with {@link ServiceLoader}:
 * on the module path every module that {@code provides} {@link ProviderPlugin}, on a class path
 * every {@code META-INF/services} registration. Tests and applications that embed the gateway put
 * their plugins there; {@code bin/gateway} puts none there and has the gateway load the plugins
 * folder instead ({@link PluginLoader}), where jars may come and go while it runs.
 */
public final class PluginDiscovery {

    private PluginDiscovery() {
    }

    /**
     * Returns every plugin found, in discovery order.
     *
     * Each call into a plugin is bounded by the default of {@code gateway.plugins.call-timeout}:
     * discovery takes no configuration.
     *
     * @throws ConfigurationException naming the plugin, when one cannot be made, was built against a
     *                                newer SPI than the gateway's, or fails as it is asked what it declares
     */
    public static List<DiscoveredPlugin> discover() {
        PluginCalls calls = new PluginCalls(PluginsConfig.DEFAULT_CALL_TIMEOUT);
        List<DiscoveredPlugin> found = new ArrayList<>();
        Iterator<ProviderPlugin> plugins = ServiceLoader.load(ProviderPlugin.class).iterator();
        try {
            while (plugins.hasNext()) {
                ProviderPlugin plugin = switch (calls.call("a plugin on the class path", plugins::next)) {
                    case PluginCalls.Answer.Returned<ProviderPlugin> made -> made.value();
                    case PluginCalls.Answer.Failed<ProviderPlugin> failed -> throw new ConfigurationException(
                            "A provider plugin on the class path or module path cannot be made: making it "
                                    + failed.why() + ".");
                };
                DiscoveredPlugin discovered = DiscoveredPlugin.of(plugin);
                SpiCompatibility.refusal(plugin.getClass().getModule(), discovered.source()).ifPresent(reason -> {
                    throw new ConfigurationException(reason);
                });
                PluginChecks.declarations(plugin, discovered.source(), calls);
                found.add(discovered);
            }
        } catch (ServiceConfigurationError e) {
            throw new ConfigurationException("A provider plugin on the class path or module path cannot be made: "
                    + StagedJar.causes(e));
        }
        return List.copyOf(found);
    }
}
