package io.aigw.runtime.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.PluginJarMaker;
import io.aigw.spi.ProviderPlugin;
import java.io.File;
import java.io.IOException;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A plugin module compiled against a newer SPI, then loaded beside this gateway's own SPI as the
 * module path would load it, is refused naming both versions; one compiled against this SPI is not.
 * Discovery, run on a real module path, refuses it, as a start refuses it (a reload refuses it in
 * the plugins folder: {@code PluginRefusalsTest}).
 */
final class SpiCompatibilityTest {
    private static final String PLUGIN_SOURCE = """
            package com.example.future;

            public final class FuturePlugin implements io.aigw.spi.ProviderPlugin {
                public io.aigw.spi.ProviderDescriptor descriptor() {
                    return io.aigw.spi.ProviderDescriptor.builder("future").defaultModel("f-1")
                            .baseUrl("https://future.example/v1").apiKeyVariable("FUTURE_API_KEY")
                            .baseUrlVariable("FUTURE_BASE_URL").build();
                }
            }
            """;

    @TempDir
    Path folder;

    @Test
    void aPluginBuiltAgainstANewerSpiIsRefusedNamingItsVersionAndTheGateways() throws Exception {
        Path newerSpi = spiDeclaring("1.7");
        Module plugin = loadBesideTheGatewaysSpi(compilePluginAgainst(newerSpi));

        assertEquals(Optional.of("The plugin future.jar was built against gateway SPI 1.7, newer than this"
                        + " gateway's SPI " + ProviderPlugin.SPI_VERSION + ", and is not loaded: run it on a gateway"
                        + " with SPI 1.7 or newer, or build it against SPI " + ProviderPlugin.SPI_VERSION + "."),
                SpiCompatibility.refusal(plugin, "future.jar"));
    }

    @Test
    void aPluginBuiltAgainstThisSpiOrAnOlderOneLoads() throws Exception {
        Module current = loadBesideTheGatewaysSpi(compilePluginAgainst(gatewaySpi()));
        Module older = loadBesideTheGatewaysSpi(compilePluginAgainst(spiDeclaring("0.9")));

        assertEquals(Optional.empty(), SpiCompatibility.refusal(current, "future.jar"));
        assertEquals(Optional.empty(), SpiCompatibility.refusal(older, "future.jar"));
    }

    @Test
    void aPluginOnTheClassPathHasNoRecordToCheckAndLoads() {
        Module unnamed = SpiCompatibilityTest.class.getClassLoader().getUnnamedModule();

        assertEquals(Optional.empty(), SpiCompatibility.refusal(unnamed, "future.jar"));
    }

    @Test
    void discoveryOnTheModulePathRefusesItNamingBothVersions() throws Exception {
        Path plugin = compilePluginAgainst(spiDeclaring("1.7"));
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--module-path", gatewaySpi() + File.pathSeparator + plugin, "--add-modules", "com.example.future",
                "-cp", locationOf(PluginDiscovery.class) + File.pathSeparator + locationOf(DiscoveryProbe.class),
                DiscoveryProbe.class.getName());
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertEquals(0, process.waitFor(), output);
        assertTrue(output.contains("refused: The plugin com.example.future.FuturePlugin was built against gateway SPI"
                + " 1.7, newer than this gateway's SPI " + ProviderPlugin.SPI_VERSION + ", and is not loaded"), output);
        assertFalse(output.contains("found future"), output);
    }

    private Path spiDeclaring(String version) {
        return PluginJarMaker.spiDeclaring(folder, version);
    }

    private Path compilePluginAgainst(Path spi) throws IOException {
        Path source = folder.resolve("plugin-src");
        Files.createDirectories(source.resolve("com/example/future"));
        Files.writeString(source.resolve("module-info.java"), """
                module com.example.future {
                    requires io.aigw.spi;
                    provides io.aigw.spi.ProviderPlugin with com.example.future.FuturePlugin;
                }
                """);
        Files.writeString(source.resolve("com/example/future/FuturePlugin.java"), PLUGIN_SOURCE);
        Path classes = Files.createDirectories(folder.resolve("plugin-against-" + spi.getFileName()));
        javac("--module-path", spi.toString(), "-d", classes.toString(), source.resolve("module-info.java").toString(),
                source.resolve("com/example/future/FuturePlugin.java").toString());
        return classes;
    }

    /** Resolves the plugin with the SPI this gateway runs, in a layer of their own, as on the module path. */
    private static Module loadBesideTheGatewaysSpi(Path plugin) {
        Configuration modules = ModuleLayer.boot().configuration()
                .resolve(ModuleFinder.of(plugin, gatewaySpi()), ModuleFinder.of(), Set.of("com.example.future"));
        ModuleLayer layer = ModuleLayer.boot().defineModulesWithOneLoader(modules, ClassLoader.getPlatformClassLoader());
        return layer.findModule("com.example.future").orElseThrow();
    }

    private static Path gatewaySpi() {
        return PluginJarMaker.spiLocation();
    }

    private static Path locationOf(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    private static void javac(String... arguments) {
        PluginJarMaker.javac(arguments);
    }
}
