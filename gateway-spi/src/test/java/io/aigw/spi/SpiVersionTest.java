package io.aigw.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Requires;
import java.lang.module.ModuleDescriptor.Version;
import java.lang.module.ModuleFinder;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.spi.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The SPI's version is declared once in code and once by the module, and a plugin's build records it. */
final class SpiVersionTest {

    @Test
    void theModuleDeclaresTheVersionTheConstantNames() throws URISyntaxException {
        ModuleDescriptor spi = ModuleFinder.of(spiLocation()).find("io.aigw.spi").orElseThrow().descriptor();

        assertEquals(Optional.of(Version.parse(ProviderPlugin.SPI_VERSION)), spi.version());
    }

    @Test
    void aPluginModuleCompiledAgainstTheSpiRecordsItsVersionWithNoStepOfItsOwn(@TempDir Path folder)
            throws IOException, URISyntaxException {
        Path source = folder.resolve("src");
        Files.createDirectories(source.resolve("com/example"));
        Files.writeString(source.resolve("module-info.java"), """
                module com.example {
                    requires io.aigw.spi;
                    provides io.aigw.spi.ProviderPlugin with com.example.ExamplePlugin;
                }
                """);
        Files.writeString(source.resolve("com/example/ExamplePlugin.java"), """
                package com.example;

                public final class ExamplePlugin implements io.aigw.spi.ProviderPlugin {
                    public io.aigw.spi.ProviderDescriptor descriptor() {
                        return io.aigw.spi.ProviderDescriptor.builder("example").defaultModel("m")
                                .baseUrl("https://example.com/v1").apiKeyVariable("EXAMPLE_API_KEY")
                                .baseUrlVariable("EXAMPLE_BASE_URL").build();
                    }
                }
                """);
        Path classes = folder.resolve("classes");
        int exit = ToolProvider.findFirst("javac").orElseThrow().run(System.out, System.err, "--release", "21",
                "--module-path", spiLocation().toString(), "-d", classes.toString(),
                source.resolve("module-info.java").toString(), source.resolve("com/example/ExamplePlugin.java").toString());
        assertEquals(0, exit);

        ModuleDescriptor plugin;
        try (InputStream in = Files.newInputStream(classes.resolve("module-info.class"))) {
            plugin = ModuleDescriptor.read(in);
        }
        Requires spi = plugin.requires().stream().filter(requires -> requires.name().equals("io.aigw.spi"))
                .findFirst().orElseThrow();
        assertEquals(Optional.of(Version.parse(ProviderPlugin.SPI_VERSION)), spi.compiledVersion());
    }

    /** The SPI's own classes folder (or jar), as a plugin's build would see it on its module path. */
    private static Path spiLocation() throws URISyntaxException {
        return Path.of(ProviderPlugin.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
