package io.aigw.runtime.routing;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.plugin.DiscoveredPlugin;
import io.aigw.runtime.plugin.LoadedJar;
import io.aigw.runtime.plugin.PluginLoader;
import io.aigw.runtime.plugin.PluginSet;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.plugin.ProviderFactory;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Reloads the plugins while the gateway runs: loads them anew, reads the providers' configuration
 * again from the file (their keys and pools among it), builds the routing table aside, and swaps it
 * in only when every step succeeded. A refused reload leaves the table in force as it was.
 * One reload runs at a time, whoever asks (the folder watcher, the admin API).
 */
public final class PluginReloader {
    private static final System.Logger LOG = System.getLogger(PluginReloader.class.getName());

    private final PluginLoader loader;
    private final ProviderFactory factory;
    private final CurrentRoutes routes;
    private final ReloadListener metrics;

    public PluginReloader(PluginLoader loader, ProviderFactory factory, CurrentRoutes routes, ReloadListener metrics) {
        this.loader = loader;
        this.factory = factory;
        this.routes = routes;
        this.metrics = metrics;
    }

    /**
     * Builds the routing table of {@code plugins}. A provider equal to one of {@code previous} (same
     * declaration, same configuration) is taken as that very instance, so that its upstream client,
     * and the connections it keeps alive, carry on across reloads.
     *
     * @throws ConfigurationException when the plugins cannot form a table (a prefix claimed twice, two
     *                                catch-alls, a catalogue that does not parse), naming the jars
     */
    public static RoutingTable build(ProviderFactory factory, PluginSet plugins, List<Provider> previous) {
        List<Provider> providers = new ArrayList<>();
        for (DiscoveredPlugin plugin : plugins.all()) {
            try {
                factory.create(List.of(plugin)).forEach(provider -> providers.add(previous.stream()
                        .filter(provider::equals).findFirst().orElse(provider)));
            } catch (ConfigurationException e) {
                throw e;
            } catch (RuntimeException e) {
                // What the plugin declared passed its checks but cannot be used (a header map with a null in it).
                throw new ConfigurationException("The plugin " + plugin.source() + " is refused: what it declares"
                        + " cannot be used: " + e);
            }
        }
        factory.warnOfUnclaimedSections(plugins.all());
        return RoutingTable.of(providers, factory.aliases());
    }

    /**
     * Loads the plugins as they are now and, if they are sound, makes them the ones in force.
     *
     * @param trigger what asked for it, for the log
     */
    public synchronized ReloadOutcome reload(String trigger) {
        RoutingSnapshot kept = routes.current();
        PluginSet plugins;
        RoutingTable table;
        try {
            plugins = loader.load();
            table = build(factory.reread(), plugins, kept.table().byPriority());
        } catch (ConfigurationException e) {
            metrics.pluginReload("refused");
            LOG.log(Level.WARNING, "Plugin reload (" + trigger + ") refused; routing generation " + kept.generation()
                    + " stays in force: " + e.getMessage());
            return new ReloadOutcome.Refused(e.getMessage(), kept);
        }
        metrics.knownModels(table.publicModelIds());
        RoutingSnapshot next = routes.swap(table, plugins);
        metrics.pluginReload("applied");
        ReloadOutcome.Applied applied = compare(kept, next);
        LOG.log(Level.INFO, "Plugin reload (" + trigger + ") applied: routing generation " + next.generation()
                + ", " + applied.changes() + ", price table " + next.prices().version()
                + ". Requests in flight finish on generation " + kept.generation() + ".\n"
                + ProviderTable.render(table));
        return applied;
    }

    private static ReloadOutcome.Applied compare(RoutingSnapshot before, RoutingSnapshot after) {
        Map<String, Provider> old = byName(before);
        Map<String, Provider> fresh = byName(after);
        List<String> added = fresh.keySet().stream().filter(name -> !old.containsKey(name))
                .map(name -> fresh.get(name).prefix()).toList();
        List<String> removed = old.keySet().stream().filter(name -> !fresh.containsKey(name))
                .map(name -> old.get(name).prefix()).toList();
        List<String> changed = fresh.keySet().stream().filter(old::containsKey)
                .filter(name -> !old.get(name).equals(fresh.get(name))
                        || !Objects.equals(version(before, old.get(name)), version(after, fresh.get(name))))
                .map(name -> fresh.get(name).prefix()).toList();
        return new ReloadOutcome.Applied(after, added, removed, changed);
    }

    private static Map<String, Provider> byName(RoutingSnapshot snapshot) {
        Map<String, Provider> providers = new LinkedHashMap<>();
        snapshot.table().byPriority().forEach(provider -> providers.put(provider.name(), provider));
        return providers;
    }

    private static Optional<String> version(RoutingSnapshot snapshot, Provider provider) {
        return snapshot.plugins().jarOf(provider.source()).flatMap(LoadedJar::version);
    }
}
