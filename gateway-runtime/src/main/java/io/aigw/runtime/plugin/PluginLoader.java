package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ConfigurationException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Loads the plugins a routing table is built from: the ones found on the class path or module path
 * at start, again each time, and every jar of the plugins folder, anew each time, each jar in a
 * class loader of its own ({@link PluginClassLoaders}) from a private copy ({@link JarStaging}).
 * A load takes the folder whole or not at all: one jar refused refuses the load.
 */
public final class PluginLoader implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(PluginLoader.class.getName());
    private final List<DiscoveredPlugin> fixed;
    private final Optional<PluginFolder> folder;
    private final JarStaging staging = new JarStaging();
    private final PluginClassLoaders classLoaders;
    private final PluginCalls calls;
    /**
     * Jars with a call that never returned, as they were then, and their refusal: each call again
     * would leave one more thread in them (and one more core, if they spin), so they are refused
     * without being called until they change. Guarded by {@code this}, as loads are.
     */
    private final Map<PluginJar, String> hung = new HashMap<>();
    private final JarConflicts conflicts;

    /**
     * @param fixed  the plugins found beside the gateway's own classes ({@link PluginDiscovery#discover()})
     * @param folder the plugins folder, if there is one
     * @param calls  how calls into the folder's plugins are made and bounded in time
     */
    public PluginLoader(List<DiscoveredPlugin> fixed, Optional<Path> folder, PluginCalls calls) {
        this.fixed = List.copyOf(fixed);
        this.folder = folder.map(PluginFolder::new);
        this.classLoaders = new PluginClassLoaders(calls);
        this.calls = calls;
        this.conflicts = JarConflicts.besides(classLoaders.gatewayLayer(), this.fixed);
    }

    public Optional<PluginFolder> folder() {
        return folder;
    }

    /**
     * Loads the fixed plugins and the folder's jars as they are now.
     *
     * @throws ConfigurationException naming the jar refused and why: not a whole jar, no plugin in it,
     *                                a module or package another jar or the gateway holds, built
     *                                against a newer SPI, or a plugin that fails, or does not answer in
     *                                time, as it is made or asked what it declares
     */
    public synchronized PluginSet load() {
        PluginSet plugins = folder.isEmpty() ? new PluginSet(fixed, List.of()) : loadFolder(folder.get());
        if (plugins.all().isEmpty()) {
            LOG.log(Level.WARNING, "No provider plugins were found, so no model can be routed. Put plugin jars in "
                    + folder.map(found -> found.path().toString()).orElse("the gateway's plugins folder")
                    + " (gateway.plugins.dir).");
        }
        return plugins;
    }

    private PluginSet loadFolder(PluginFolder folder) {
        List<StagedJar> staged = new ArrayList<>();
        List<LoadedJar> loaded = new ArrayList<>();
        try {
            for (PluginJar jar : folder.jars()) {
                Path copy = staging.stage(jar);
                try {
                    staged.add(StagedJar.of(jar, copy));
                } catch (ConfigurationException e) {
                    staging.discard(copy);
                    throw e;
                }
            }
            conflicts.check(staged);
            hung.keySet().retainAll(staged.stream().map(StagedJar::jar).toList());
            for (StagedJar jar : staged) {
                LoadedJar done = loadUnlessHung(jar);
                staging.deleteWhenCollected(done.loader(), jar.copy());
                loaded.add(done);
            }
            return new PluginSet(fixed, loaded);
        } catch (RuntimeException e) {
            staged.subList(loaded.size(), staged.size()).forEach(jar -> staging.discard(jar.copy()));
            throw e;
        }
    }

    private LoadedJar loadUnlessHung(StagedJar jar) {
        String refusal = hung.get(jar.jar());
        if (refusal != null) {
            throw new ConfigurationException(refusal + " It is not called again until the jar changes.");
        }
        long givenUp = calls.givenUp();
        try {
            return classLoaders.load(jar);
        } catch (ConfigurationException e) {
            if (calls.givenUp() > givenUp) {
                hung.put(jar.jar(), e.getMessage());
            }
            throw e;
        }
    }

    /** Deletes the copies of the jars: the gateway stops, and no plugin is called any more. */
    @Override
    public void close() {
        staging.close();
    }
}
