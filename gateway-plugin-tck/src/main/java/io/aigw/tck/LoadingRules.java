package io.aigw.tck;

import io.aigw.spi.ProviderPlugin;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Version;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How the plugin loads through {@link java.util.ServiceLoader}: on a class path from its
 * {@code META-INF/services} registration, and on the module path, where the gateway's distribution
 * runs it, from the {@code provides} of its {@code module-info}.
 */
final class LoadingRules {
    private static final String SERVICE = ProviderPlugin.class.getName();
    private static final String SPI_MODULE = "io.aigw.spi";

    private LoadingRules() {
    }

    static List<String> classPath(PluginUnderTest plugin) {
        ServiceLoading.ProbeRun run = ServiceLoading.onClassPath(plugin.location());
        List<String> problems = new ArrayList<>();
        if (run.moduleOf(plugin.className()).isEmpty()) {
            problems.add("on a class path holding " + plugin.location() + ", ServiceLoader finds no "
                    + plugin.className() + found(run) + ": list the class in META-INF/services/" + SERVICE);
        }
        catalogue(plugin, run, "on a class path", problems);
        return problems;
    }

    static List<String> modulePath(PluginUnderTest plugin) {
        List<String> problems = new ArrayList<>();
        Optional<ModuleDescriptor> module = explicitModule(plugin, problems);
        if (module.isEmpty()) {
            return problems;
        }
        declaration(plugin, module.get(), problems);
        ServiceLoading.ProbeRun run = ServiceLoading.onModulePath(plugin.location());
        if (run.exit() != 0) {
            problems.add("a JVM with the plugin and gateway-spi on its module path does not start: "
                    + ServiceLoading.lines(run.otherOutput()) + " (a plugin requires io.aigw.spi and the JDK alone)");
            return problems;
        }
        if (!run.moduleOf(plugin.className()).equals(Optional.of(module.get().name()))) {
            problems.add("on the module path, ServiceLoader finds no " + plugin.className() + " in module "
                    + module.get().name() + found(run));
        }
        catalogue(plugin, run, "on the module path", problems);
        return problems;
    }

    /** The plugin's own module declaration; a plugin without one cannot be checked for its SPI version. */
    private static Optional<ModuleDescriptor> explicitModule(PluginUnderTest plugin, List<String> problems) {
        String missing = plugin.location() + " holds no module-info.class: add a module-info.java that says"
                + " 'requires io.aigw.spi;' and 'provides " + SERVICE + " with " + plugin.className() + ";'";
        try {
            Optional<ModuleDescriptor> module = ModuleFinder.of(plugin.location()).findAll().stream()
                    .map(ModuleReference::descriptor).filter(descriptor -> !descriptor.isAutomatic()).findFirst();
            if (module.isEmpty()) {
                problems.add(missing);
            }
            return module;
        } catch (FindException e) {
            problems.add(missing + " (" + e.getMessage() + ")");
            return Optional.empty();
        }
    }

    private static void declaration(PluginUnderTest plugin, ModuleDescriptor module, List<String> problems) {
        boolean provides = module.provides().stream().anyMatch(provided -> provided.service().equals(SERVICE)
                && provided.providers().contains(plugin.className()));
        if (!provides) {
            problems.add("module " + module.name() + " does not declare 'provides " + SERVICE + " with "
                    + plugin.className() + ";', so the gateway's module path does not find it");
        }
        Optional<ModuleDescriptor.Requires> spi = module.requires().stream()
                .filter(requires -> requires.name().equals(SPI_MODULE)).findFirst();
        Version current = Version.parse(ProviderPlugin.SPI_VERSION);
        if (spi.isEmpty()) {
            problems.add("module " + module.name() + " does not require " + SPI_MODULE);
        } else if (spi.get().compiledVersion().isEmpty()) {
            problems.add("module " + module.name() + " records no version of " + SPI_MODULE + ", so the gateway"
                    + " cannot tell which SPI it was built against: compile it against the gateway-spi jar");
        } else if (spi.get().compiledVersion().get().compareTo(current) > 0) {
            problems.add("module " + module.name() + " was built against gateway SPI "
                    + spi.get().compiledVersion().get() + ", newer than the SPI " + current + " this test runs"
                    + " with; a gateway with SPI " + current + " refuses it");
        }
        for (String name : module.packages()) {
            if (name.equals(SPI_MODULE) || name.startsWith("io.aigw.runtime")) {
                problems.add("module " + module.name() + " holds the package " + name + ", which is the gateway's:"
                        + " a plugin needs a package of its own, since one package cannot be in two modules");
            }
        }
    }

    /** The catalogue must be readable wherever the plugin runs; a module's resources are its own. */
    private static void catalogue(PluginUnderTest plugin, ServiceLoading.ProbeRun run, String where,
                                  List<String> problems) {
        Optional<String> catalogue = run.catalogueOf(plugin.className());
        if (catalogue.isEmpty()) {
            return;
        }
        if (catalogue.get().equals("none") && hasCatalogue(plugin.instance())) {
            problems.add(where + ", catalogue() finds no catalogue, though it does in this test: resolve it from"
                    + " the plugin's own class, " + plugin.instance().getClass().getSimpleName()
                    + ".class.getResource(\"models.json\"), since a module's resources are visible to its own code"
                    + " alone");
        } else if (!catalogue.get().equals("none") && !catalogue.get().endsWith(" bytes")) {
            problems.add(where + ", " + catalogue.get());
        }
    }

    private static boolean hasCatalogue(ProviderPlugin plugin) {
        try {
            return plugin.catalogue() != null && plugin.catalogue().isPresent();
        } catch (RuntimeException | LinkageError e) {
            return false; // the catalogue check reports it
        }
    }

    private static String found(ServiceLoading.ProbeRun run) {
        List<String> notes = new ArrayList<>();
        if (!run.providers().isEmpty()) {
            notes.add("it finds " + String.join(", ", run.providers()));
        }
        if (!run.errors().isEmpty()) {
            notes.add("it reports " + String.join("; ", run.errors()));
        }
        if (run.exit() != 0) {
            notes.add("the JVM says " + ServiceLoading.lines(run.otherOutput()));
        }
        return notes.isEmpty() ? "" : " (" + String.join("; ", notes) + ")";
    }
}
