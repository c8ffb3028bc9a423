package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.spi.ProviderPlugin;
import java.lang.module.Configuration;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ResolutionException;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.function.Predicate;

/**
 * Gives each staged plugin jar a class loader of its own and makes the plugins it provides.
 *
 * <p>Where the SPI is a named module (the gateway on the module path, as {@code bin/gateway} runs
 * it), the jar becomes a module layer whose parent is the SPI's layer: its module may require the
 * SPI and the JDK's modules, no library of the gateway's, and the platform class loader, not the
 * application's, is its loader's parent, as Trino gives its plugins. Where the gateway runs on the
 * class path (its own tests, an application that embeds it), the SPI has no module to require, so
 * the jar is read as a class path jar by a {@link URLClassLoader} whose parent loaded the SPI.
 */
final class PluginClassLoaders {
    private static final String SPI_MODULE = "io.aigw.spi";
    private static final String NOT_A_PLUGIN = "it provides no io.aigw.spi.ProviderPlugin, so it is no plugin:"
            + " a plugin's module-info.java says 'provides io.aigw.spi.ProviderPlugin with <its class>;', and its"
            + " jar lists that class in META-INF/services/io.aigw.spi.ProviderPlugin.";

    /** The layer of the SPI module; null when the SPI is on the class path. */
    private final ModuleLayer spiLayer = ProviderPlugin.class.getModule().getLayer();
    private final PluginCalls calls;

    PluginClassLoaders(PluginCalls calls) {
        this.calls = calls;
    }

    /** The layer whose modules and packages a plugin jar must not hold again. */
    ModuleLayer gatewayLayer() {
        return spiLayer != null ? spiLayer : ModuleLayer.boot();
    }

    /**
     * Loads the jar and makes its plugins.
     *
     * @throws ConfigurationException naming the jar when it cannot be loaded, provides no plugin, or a
     *                                plugin fails
     */
    LoadedJar load(StagedJar staged) {
        SpiCompatibility.refusal(staged.descriptor(), staged.jar().name()).ifPresent(reason -> {
            throw new ConfigurationException(reason);
        });
        List<String> libraries = staged.descriptor().requires().stream().map(ModuleDescriptor.Requires::name)
                .filter(module -> !module.equals(SPI_MODULE) && !module.startsWith("java.") && !module.startsWith("jdk."))
                .toList();
        if (!libraries.isEmpty()) {
            throw staged.refused("its module requires " + String.join(", ", libraries) + ", which the gateway does not"
                    + " give its plugins: a plugin requires io.aigw.spi and modules of the JDK alone.");
        }
        return spiLayer != null ? inLayer(staged) : inClassLoader(staged);
    }

    private LoadedJar inLayer(StagedJar staged) {
        ModuleLayer layer;
        try {
            Configuration modules = spiLayer.configuration()
                    .resolve(ModuleFinder.of(staged.copy()), ModuleFinder.of(), Set.of(staged.moduleName()));
            layer = spiLayer.defineModulesWithOneLoader(modules, ClassLoader.getPlatformClassLoader());
        } catch (ResolutionException | LayerInstantiationException e) {
            throw staged.refused("its module cannot be loaded beside the gateway's: " + StagedJar.causes(e));
        }
        return made(staged, layer.findLoader(staged.moduleName()), ServiceLoader.load(layer, ProviderPlugin.class),
                type -> type.getModule().getLayer() == layer);
    }

    private LoadedJar inClassLoader(StagedJar staged) {
        URL jar;
        try {
            jar = staged.copy().toUri().toURL();
        } catch (MalformedURLException e) {
            throw staged.refused("its copy cannot be named by a URL: " + e.getMessage());
        }
        URLClassLoader loader = new URLClassLoader(staged.jar().name(), new URL[] {jar},
                ProviderPlugin.class.getClassLoader());
        return made(staged, loader, ServiceLoader.load(ProviderPlugin.class, loader),
                type -> type.getClassLoader() == loader);
    }

    /** Makes the plugins the jar itself provides: a service loader also finds those of its parents. */
    private LoadedJar made(StagedJar staged, ClassLoader loader, ServiceLoader<ProviderPlugin> services,
                           Predicate<Class<?>> inThisJar) {
        List<DiscoveredPlugin> plugins = new ArrayList<>();
        try {
            for (ServiceLoader.Provider<ProviderPlugin> provider : services.stream()
                    .filter(provider -> inThisJar.test(provider.type())).toList()) {
                String source = staged.jar().name() + " (" + provider.type().getName() + ")";
                // Its constructor and static initialiser run here: plugin code, like its declarations.
                ProviderPlugin plugin = switch (calls.call(source + " constructor", provider::get)) {
                    case PluginCalls.Answer.Returned<ProviderPlugin> made -> made.value();
                    case PluginCalls.Answer.Failed<ProviderPlugin> failed -> throw staged.refused(
                            "its plugin cannot be made: making " + provider.type().getName() + " " + failed.why() + ".");
                };
                PluginChecks.declarations(plugin, source, calls);
                plugins.add(new DiscoveredPlugin(plugin, source));
            }
        } catch (ServiceConfigurationError | LinkageError e) {
            throw staged.refused("its plugin cannot be made: " + StagedJar.causes(e));
        }
        if (plugins.isEmpty()) {
            throw staged.refused(NOT_A_PLUGIN);
        }
        return new LoadedJar(staged.jar(), staged.version(), loader, List.copyOf(plugins));
    }
}
