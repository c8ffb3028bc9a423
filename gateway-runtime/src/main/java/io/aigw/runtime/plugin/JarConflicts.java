package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ConfigurationException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Refuses plugin jars that cannot share one gateway: two jars of one module (two versions of a
 * plugin, a copied jar), two jars with one package, and a jar with a module or package the gateway
 * already has. Each jar gets a class loader of its own, so the JVM would load them all; but a
 * package names one set of classes, and two plugins of one module are one plugin installed twice.
 */
final class JarConflicts {
    /** Module names and package names the gateway itself holds, each with who holds it, for messages. */
    private final Map<String, String> gatewayModules;
    private final Map<String, String> gatewayPackages;

    private JarConflicts(Map<String, String> gatewayModules, Map<String, String> gatewayPackages) {
        this.gatewayModules = gatewayModules;
        this.gatewayPackages = gatewayPackages;
    }

    /**
     * What the gateway holds: the modules of the layer its SPI is in (or of the boot layer when it
     * runs on the class path) and of that layer's parents, and the plugins found on the class path or
     * module path at start.
     */
    static JarConflicts besides(ModuleLayer gatewayLayer, List<DiscoveredPlugin> fixed) {
        Map<String, String> modules = new HashMap<>();
        Map<String, String> packages = new HashMap<>();
        List<ModuleLayer> layers = new ArrayList<>(List.of(gatewayLayer));
        for (int i = 0; i < layers.size(); i++) {
            layers.addAll(layers.get(i).parents());
            for (Module module : layers.get(i).modules()) {
                String holder = "the gateway's module " + module.getName();
                modules.putIfAbsent(module.getName(), holder);
                module.getPackages().forEach(name -> packages.putIfAbsent(name, holder));
            }
        }
        for (DiscoveredPlugin plugin : fixed) {
            packages.putIfAbsent(plugin.plugin().getClass().getPackageName(), "the plugin " + plugin.source());
        }
        return new JarConflicts(Map.copyOf(modules), Map.copyOf(packages));
    }

    /**
     * @throws ConfigurationException naming the jars and what they share
     */
    void check(List<StagedJar> jars) {
        Map<String, StagedJar> byModule = new HashMap<>();
        Map<String, StagedJar> byPackage = new HashMap<>();
        for (StagedJar jar : jars) {
            String module = jar.moduleName();
            if (gatewayModules.containsKey(module)) {
                throw jar.refused("it holds the module " + module + ", which is " + gatewayModules.get(module)
                        + ". A plugin jar holds its plugin alone, compiled against the SPI and not bundling it.");
            }
            StagedJar other = byModule.putIfAbsent(module, jar);
            if (other != null) {
                throw new ConfigurationException("The plugin jars " + other.jar().name() + " and " + jar.jar().name()
                        + " both hold the module " + module + versions(other, jar) + ": a plugin is installed once;"
                        + " remove one of them.");
            }
            for (String name : jar.descriptor().packages()) {
                if (gatewayPackages.containsKey(name)) {
                    throw jar.refused("it holds the package " + name + ", which belongs to "
                            + gatewayPackages.get(name) + ". Give the plugin a package of its own.");
                }
                StagedJar owner = byPackage.putIfAbsent(name, jar);
                if (owner != null) {
                    throw new ConfigurationException("The plugin jars " + owner.jar().name() + " and "
                            + jar.jar().name() + " both hold the package " + name + ": a package belongs to one"
                            + " plugin. Give each plugin a package of its own, or remove one of the jars.");
                }
            }
        }
    }

    private static String versions(StagedJar one, StagedJar other) {
        return one.version().isEmpty() && other.version().isEmpty() ? ""
                : " (versions " + one.version().orElse("unknown") + " and " + other.version().orElse("unknown") + ")";
    }
}
