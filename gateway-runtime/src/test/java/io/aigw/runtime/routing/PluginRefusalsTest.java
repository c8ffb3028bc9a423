package io.aigw.runtime.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.testing.PluginJarMaker;
import io.aigw.runtime.testing.TestGateway;
import io.aigw.spi.ProviderPlugin;
import io.helidon.common.LazyValue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each kind of jar the gateway cannot load, dropped into the plugins folder of a running gateway:
 * the reload is refused with a 409 naming the jar and the reason, and the providers in force stay
 * as they were. The same jar present at start stops the start with the same message.
 */
public final class PluginRefusalsTest {
    private static final String MODULE_INFO = """
            module com.example.widget {
                requires io.aigw.spi;
                provides io.aigw.spi.ProviderPlugin with com.example.widget.Plugin;
            }
            """;

    @TempDir
    Path work;

    /** What a case puts into the plugins folder. */
    @FunctionalInterface
    interface Install {
        void into(Path work, Path plugins) throws IOException;
    }

    static Stream<Arguments> refusals() {
        return Stream.of(
                refusal("a prefix another plugin claims",
                        (work, plugins) -> PluginJarMaker.plugin(work, "impostor", "openai", "")
                                .writeTo(plugins, "impostor.jar"),
                        "Two plugins claim the model prefix 'openai':", "impostor.jar (com.example.impostor.Plugin)"),
                refusal("a second catch-all",
                        (work, plugins) -> PluginJarMaker.plugin(work, "everything", "everything",
                                ".stripsPrefix(false).catchAll(true)").writeTo(plugins, "everything.jar"),
                        "Two plugins claim to be the catch-all provider:", "everything.jar"),
                refusal("a descriptor that cannot be built",
                        (work, plugins) -> PluginJarMaker.plugin(work, "broken", "Not A Prefix", "")
                                .writeTo(plugins, "broken.jar"),
                        "The plugin broken.jar (com.example.broken.Plugin) is refused: its descriptor() failed:"),
                refusal("a plugin whose class cannot be made",
                        (work, plugins) -> new PluginJarMaker(work).source("com.example.failing.Plugin",
                                        PluginJarMaker.pluginSource("failing", "failing", "", """
                                                    public Plugin() {
                                                        throw new IllegalStateException("no licence file");
                                                    }
                                                """))
                                .service("com.example.failing.Plugin").writeTo(plugins, "failing.jar"),
                        "The plugin jar failing.jar is refused: its plugin cannot be made:", "no licence file"),
                refusal("a hook whose answer cannot be used",
                        (work, plugins) -> new PluginJarMaker(work).source("com.example.headers.Plugin",
                                        PluginJarMaker.pluginSource("headers", "headers", "", """
                                                    @Override
                                                    public java.util.Map<String, String> extraHeaders() {
                                                        java.util.Map<String, String> headers = new java.util.HashMap<>();
                                                        headers.put("X-Team", null);
                                                        return headers;
                                                    }
                                                """))
                                .service("com.example.headers.Plugin").writeTo(plugins, "headers.jar"),
                        "The plugin headers.jar (com.example.headers.Plugin) is refused: what it declares cannot be"
                                + " used:"),
                refusal("two jars of one module",
                        (work, plugins) -> {
                            Path jar = widget(work).moduleInfo(MODULE_INFO).writeTo(plugins, "widget-1.0.jar");
                            Files.copy(jar, plugins.resolve("widget-1.1.jar"));
                        },
                        "The plugin jars widget-1.0.jar and widget-1.1.jar both hold the module com.example.widget"),
                refusal("two jars with one package",
                        (work, plugins) -> {
                            Path jar = widget(work).writeTo(plugins, "widget.jar");
                            Files.copy(jar, plugins.resolve("widget-copy.jar"));
                        },
                        "The plugin jars widget-copy.jar and widget.jar both hold the package com.example.widget"),
                refusal("a package of a plugin the gateway already has",
                        (work, plugins) -> PluginJarMaker.plugin(work, "other", "other", "")
                                .source("io.aigw.runtime.acme.Spare", "package io.aigw.runtime.acme; class Spare {}")
                                .writeTo(plugins, "spare.jar"),
                        "The plugin jar spare.jar is refused: it holds the package io.aigw.runtime.acme, which belongs"
                                + " to the plugin io.aigw.runtime.acme.AcmePlugin"),
                refusal("a jar that is no plugin",
                        (work, plugins) -> new PluginJarMaker(work)
                                .source("com.example.util.Strings", "package com.example.util; public class Strings {}")
                                .writeTo(plugins, "util.jar"),
                        "The plugin jar util.jar is refused: it provides no io.aigw.spi.ProviderPlugin"),
                refusal("a plugin built against a newer SPI",
                        (work, plugins) -> widget(work).moduleInfo(MODULE_INFO)
                                .against(PluginJarMaker.spiDeclaring(work, "1.7")).writeTo(plugins, "future.jar"),
                        "The plugin future.jar was built against gateway SPI 1.7, newer than this gateway's SPI "
                                + ProviderPlugin.SPI_VERSION),
                refusal("a module that requires a library of the gateway's",
                        (work, plugins) -> widget(work).moduleInfo(MODULE_INFO.replace("requires io.aigw.spi;",
                                        "requires io.aigw.spi; requires io.helidon.common;"))
                                .alsoCompiledAgainst(LazyValue.class).writeTo(plugins, "widget.jar"),
                        "The plugin jar widget.jar is refused: its module requires io.helidon.common, which the gateway"
                                + " does not give its plugins"),
                refusal("a jar still being copied",
                        (work, plugins) -> {
                            byte[] jar = widget(work).bytes();
                            Files.write(plugins.resolve("widget.jar"), Arrays.copyOf(jar, jar.length / 2));
                        },
                        "The plugin jar widget.jar is not a complete jar (zip) file, so it is not loaded"),
                refusal("a broken module declaration",
                        (work, plugins) -> new PluginJarMaker(work).source("com.example.ghost.Other",
                                        "package com.example.ghost; public class Other {}")
                                .service("com.example.elsewhere.Plugin").writeTo(plugins, "ghost.jar"),
                        "The plugin jar ghost.jar is refused: its module declaration cannot be read",
                        "com.example.elsewhere.Plugin"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void aReloadRefusesItNamingTheJarAndKeepsTheProvidersInForce(String what, Install install, List<String> named)
            throws IOException {
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        try (TestGateway gateway = start(plugins)) {
            String before = gateway.send(gateway.request("/admin/v1/plugins").build()).body();
            install.into(work, plugins);

            HttpResponse<String> reload = gateway.send(gateway.request("/admin/v1/plugins/reload")
                    .POST(HttpRequest.BodyPublishers.noBody()).build());

            assertEquals(409, reload.statusCode(), reload.body());
            assertTrue(reload.body().startsWith("{\"error\":{\"message\":\""), reload.body());
            assertTrue(reload.body().endsWith(" The providers of routing generation 1 stay in force.\","
                    + "\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"plugin_refused\"}}"), reload.body());
            for (String part : named) {
                assertTrue(reload.body().contains(part.replace("\"", "\\\"")), part + " in " + reload.body());
            }
            assertEquals(before, gateway.send(gateway.request("/admin/v1/plugins").build()).body());
            assertEquals(1, gateway.gateway().routes().generation());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refusals")
    void atStartItStopsTheStartWithTheSameMessage(String what, Install install, List<String> named)
            throws IOException {
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        install.into(work, plugins);

        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> start(plugins).close());

        for (String part : named) {
            assertTrue(refused.getMessage().contains(part), part + " in " + refused.getMessage());
        }
    }

    private static TestGateway start(Path plugins) {
        return TestGateway.start(Map.of("gateway.plugins.dir", plugins.toString(), "gateway.plugins.watch", "false",
                "gateway.access-log", "off"), Map.of());
    }

    private static PluginJarMaker widget(Path work) {
        return PluginJarMaker.plugin(work, "widget", "widget", "");
    }

    private static Arguments refusal(String what, Install install, String... named) {
        return Arguments.of(what, install, List.of(named));
    }
}
