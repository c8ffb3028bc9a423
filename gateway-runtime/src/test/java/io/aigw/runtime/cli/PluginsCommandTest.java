package io.aigw.runtime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.PluginJarMaker;
import io.aigw.runtime.testing.TestGateway;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gateway plugins list | reload} against a running gateway: what it prints, and its exit
 * codes 0 (done), 1 (reload refused), 2 (wrong usage) and 3 (the gateway could not be asked).
 */
public final class PluginsCommandTest {
    @TempDir
    Path work;
    private Path plugins;
    private TestGateway gateway;

    @BeforeEach
    void start() throws IOException {
        plugins = Files.createDirectories(work.resolve("plugins"));
        PluginJarMaker.plugin(work, "widget", "widget", ".priority(7)").implementationVersion("1.4")
                .writeTo(plugins, "widget.jar");
        gateway = TestGateway.start(Map.of("gateway.plugins.dir", plugins.toString(), "gateway.plugins.watch", "false",
                "gateway.access-log", "off"), Map.of("WIDGET_API_KEY", "widget-upstream-key"));
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    @Test
    void listPrintsEachProviderWithItsJarAndWhetherAKeyIsSet() {
        Output list = run(Optional.of(TestGateway.KEY), "list");

        assertEquals(PluginsCommand.OK, list.code(), list.err());
        assertTrue(list.out().startsWith("Routing generation 1:"), list.out());
        String prices = list.out().lines().skip(1).findFirst().orElseThrow();
        assertTrue(prices.matches("Prices " + gateway.gateway().routes().prices().version()
                + " in force since \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2} UTC\\."), prices);
        assertTrue(list.out().lines().anyMatch(line -> line.matches("widget\\.jar +1\\.4 +widget +7 +widget-1 +no +set")),
                list.out());
        assertTrue(list.out().lines().anyMatch(line -> line.matches(".*OpenAiPlugin +- +openai +1 +gpt-5 +no +none")),
                list.out());
        assertFalse(list.out().contains("widget-upstream-key"), list.out());
    }

    @Test
    void reloadSaysWhatChangedOrWhyItWasRefused() throws IOException {
        Files.delete(plugins.resolve("widget.jar"));
        Output applied = run(Optional.of(TestGateway.KEY), "reload");
        assertEquals(PluginsCommand.OK, applied.code(), applied.err());
        assertTrue(applied.out().startsWith("Reloaded: routing generation 2, removed widget."), applied.out());

        new PluginJarMaker(work).source("com.example.util.Strings", "package com.example.util; public class Strings {}")
                .writeTo(plugins, "util.jar");
        Output refused = run(Optional.of(TestGateway.KEY), "reload");
        assertEquals(PluginsCommand.REFUSED, refused.code(), refused.out());
        assertTrue(refused.err().startsWith("gateway plugins: reload refused: The plugin jar util.jar is refused: it"
                + " provides no io.aigw.spi.ProviderPlugin"), refused.err());
        assertEquals("", refused.out());
    }

    @Test
    void aGatewayThatCannotBeAskedIsExitCodeThreeAndAMistakeTwo() throws IOException {
        Output wrongKey = run(Optional.of("sk-gw-not-a-key-0000000000"), "list");
        assertEquals(PluginsCommand.UNREACHABLE, wrongKey.code());
        assertTrue(wrongKey.err().contains("answered 401: Invalid or missing workspace key."), wrongKey.err());

        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        Output unreachable = run(URI.create("http://127.0.0.1:" + closed), Optional.of(TestGateway.KEY), "list");
        assertEquals(PluginsCommand.UNREACHABLE, unreachable.code());
        assertTrue(unreachable.err().startsWith("gateway plugins: the gateway at http://127.0.0.1:" + closed
                + " cannot be reached"), unreachable.err());

        assertFalse(unreachable.err().contains("null"), unreachable.err());

        assertEquals(PluginsCommand.USAGE, run(Optional.empty(), "list").code());
        assertEquals(PluginsCommand.USAGE, run(Optional.of(TestGateway.KEY), "restart").code());
        assertEquals(PluginsCommand.USAGE, run(Optional.of(TestGateway.KEY)).code());
    }

    @Test
    void aRefusedConnectionAndAnUnknownHostAreNamedWithTheUrl() throws IOException {
        int closed;
        try (ServerSocket socket = new ServerSocket(0)) {
            closed = socket.getLocalPort();
        }
        Output refused = run(URI.create("http://127.0.0.1:" + closed), Optional.of(TestGateway.KEY), "list");
        assertEquals(PluginsCommand.UNREACHABLE, refused.code());
        assertEquals("gateway plugins: the gateway at http://127.0.0.1:" + closed + " cannot be reached: the"
                + " connection was refused: nothing listens on port " + closed + " of 127.0.0.1; is the gateway"
                + " running, and on that port?\n", refused.err().replace(System.lineSeparator(), "\n"));

        Output unknown = run(Optional.of(TestGateway.KEY), "list", "--url", "http://no-such-gateway.invalid:8080");
        assertEquals(PluginsCommand.UNREACHABLE, unknown.code());
        assertEquals("gateway plugins: the gateway at http://no-such-gateway.invalid:8080 cannot be reached: the"
                + " host no-such-gateway.invalid is unknown (no DNS or hosts entry).\n",
                unknown.err().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void aUrlWithoutASchemeIsAMistakeOfUsage() {
        for (String url : List.of("localhost:8080", "127.0.0.1:8080", "/admin", "ftp://127.0.0.1:8080")) {
            Output given = run(Optional.of(TestGateway.KEY), "list", "--url", url);
            assertEquals(PluginsCommand.USAGE, given.code(), url + ": " + given.err());
            assertTrue(given.err().startsWith("gateway plugins: --url must be"), given.err());
            assertTrue(given.err().contains("not '" + url + "'"), given.err());
        }

        Output fromEnvironment = run(URI.create("localhost:8080"), Optional.of(TestGateway.KEY), "list");
        assertEquals(PluginsCommand.USAGE, fromEnvironment.code(), fromEnvironment.err());
        assertTrue(fromEnvironment.err().startsWith("gateway plugins: GATEWAY_URL must be an http or https URL with a"
                + " host, such as http://127.0.0.1:8080, not 'localhost:8080'"), fromEnvironment.err());
    }

    private Output run(Optional<String> key, String... args) {
        return run(gateway.uri("/"), key, args);
    }

    private static Output run(URI url, Optional<String> key, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new PluginsCommand(url, key, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).run(List.of(args));
        return new Output(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** One run of the command: its exit code and what it printed. */
    private record Output(int code, String out, String err) {
    }
}
