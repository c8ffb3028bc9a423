package io.aigw.runtime.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.testing.LogRecords;
import io.aigw.runtime.testing.PluginJarMaker;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Plugins whose code misbehaves (throws an {@link Error}, throws a checked exception Java did not
 * declare, never returns, spins) or declares headers the gateway writes itself: a reload refuses
 * the jar with 409 {@code plugin_refused} and one log line, the providers in force stay, a start
 * with the jar is refused instead of hanging, and the folder watcher goes on loading later jars.
 */
public final class FaultyPluginsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String CALL_TIMEOUT = "1s";
    /** Never returns, and goes on waiting when interrupted, as a careless plugin would. */
    private static final String NEVER_RETURNS = """
                @Override
                public io.aigw.spi.ProviderDescriptor descriptor() {
                    while (true) {
                        try {
                            Thread.sleep(60_000);
                        } catch (InterruptedException ignored) {
                            // Waits on.
                        }
                    }
                }
            """;
    /** Spins until interrupted, as a loop that checks for it does; one that does not spins on for good. */
    private static final String SPINNING = """
                @Override
                public io.aigw.spi.ProviderDescriptor descriptor() {
                    long spins = 0;
                    while (!Thread.currentThread().isInterrupted()) {
                        spins++;
                    }
                    throw new IllegalStateException("interrupted after " + spins + " spins");
                }
            """;

    @TempDir
    Path work;

    static Stream<Arguments> faults() {
        return Stream.of(
                fault("an Error (a stack overflow)", "overflow", """
                            @Override
                            public io.aigw.spi.ProviderDescriptor descriptor() {
                                return deeper(0);
                            }

                            private io.aigw.spi.ProviderDescriptor deeper(long depth) {
                                return depth < 0 ? null : deeper(depth + 1);
                            }
                        """, "its descriptor() failed: java.lang.StackOverflowError."),
                fault("a checked exception thrown sneakily", "sneaky", """
                            @Override
                            public io.aigw.spi.ProviderDescriptor descriptor() {
                                return Plugin.<RuntimeException>sneakily(new java.io.IOException("licence server down"));
                            }

                            @SuppressWarnings("unchecked")
                            private static <E extends Throwable> io.aigw.spi.ProviderDescriptor sneakily(Throwable e)
                                    throws E {
                                throw (E) e;
                            }
                        """, "its descriptor() failed: java.io.IOException: licence server down."),
                fault("a descriptor that never returns", "stuck", NEVER_RETURNS, "its descriptor() did not return within 1 s (gateway.plugins.call-timeout)"),
                fault("a descriptor that spins", "spinning", SPINNING, "its descriptor() did not return within 1 s (gateway.plugins.call-timeout)"),
                fault("extra headers that frame the request", "framing", descriptor("framing") + """
                            @Override
                            public java.util.Map<String, String> extraHeaders() {
                                return java.util.Map.of("Transfer-Encoding", "chunked");
                            }
                        """, "its extraHeaders() sets 'Transfer-Encoding', which cannot be: a provider's headers cannot"
                        + " set Host, Content-Length, Transfer-Encoding"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faults")
    void aReloadRefusesItWith409AndOneLogLineAndKeepsTheProvidersInForce(String what, String name, String members,
                                                                         String why) throws IOException {
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        try (TestGateway gateway = start(plugins, "false")) {
            String before = plugins(gateway);
            faulty(name, members).writeTo(plugins, name + ".jar");

            HttpResponse<String> reload;
            List<LogRecord> logged;
            try (LogRecords logs = LogRecords.capture()) {
                reload = gateway.send(gateway.request("/admin/v1/plugins/reload").timeout(WAIT)
                        .POST(HttpRequest.BodyPublishers.noBody()).build());
                logged = warnings(logs);
            }

            assertEquals(409, reload.statusCode(), reload.body());
            JsonObject error = Json.createReader(new StringReader(reload.body())).readObject().getJsonObject("error");
            assertEquals("plugin_refused", error.getString("code"));
            assertTrue(error.getString("message").startsWith(refusal(name, why)), error.getString("message"));
            assertEquals(before, plugins(gateway));
            assertEquals(1, gateway.gateway().routes().generation());
            assertOneLine(logged, "Plugin reload (POST /admin/v1/plugins/reload) refused; routing generation 1 stays"
                    + " in force: " + refusal(name, why));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faults")
    void droppedIntoTheWatchedFolderItIsRefusedAndAGoodJarDroppedLaterIsStillLoaded(String what, String name,
                                                                                   String members, String why)
            throws Exception {
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        try (TestGateway gateway = start(plugins, "true")) {
            List<LogRecord> logged;
            try (LogRecords logs = LogRecords.capture()) {
                faulty(name, members).writeTo(plugins, name + ".jar");
                await(() -> warnings(logs), records -> !records.isEmpty());
                logged = warnings(logs);
            }
            assertOneLine(logged, "Plugin reload (a jar changed in the plugins folder) refused; routing generation 1"
                    + " stays in force: " + refusal(name, why));
            assertEquals(1, gateway.gateway().routes().generation());

            Files.delete(plugins.resolve(name + ".jar"));
            PluginJarMaker.plugin(work, "widget", "widget", "").writeTo(plugins, "widget.jar");

            await(() -> plugins(gateway), list -> list.contains("\"jar\":\"widget.jar\""));
            HttpResponse<String> live = gateway.send(gateway.request("/observe/health/live").build());
            assertEquals(200, live.statusCode(), live.body());
            assertEquals("watching", check(live.body(), "plugins").getJsonObject("data").getString("watcher"));
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("faults")
    void aStartWithItInThePluginsFolderIsRefusedNamingItInsteadOfHanging(String what, String name, String members,
                                                                        String why) {
        Path plugins = work.resolve("plugins");
        faulty(name, members).writeTo(uncheckedFolder(plugins), name + ".jar");

        ConfigurationException refused = assertTimeoutPreemptively(WAIT,
                () -> assertThrows(ConfigurationException.class, () -> start(plugins, "true").close()));

        assertTrue(refused.getMessage().startsWith(refusal(name, why)), refused.getMessage());
    }

    @Test
    void aPluginThatSpinsIsInterruptedOnceGivenUp() throws IOException {
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        faulty("spinning", SPINNING).writeTo(plugins, "spinning.jar");

        assertTimeoutPreemptively(WAIT,
                () -> assertThrows(ConfigurationException.class, () -> start(plugins, "false").close()));

        await(() -> Thread.getAllStackTraces().keySet().stream().filter(thread -> thread.getName()
                .contains("spinning.jar")).toList(), List::isEmpty);
    }

    @Test
    void aJarWithACallThatNeverReturnedIsNotCalledAgainUntilItChanges() throws IOException {
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        try (TestGateway gateway = start(plugins, "false")) {
            faulty("hanging", NEVER_RETURNS).writeTo(plugins, "hanging.jar");
            assertEquals(409, reload(gateway).statusCode());
            assertEquals(1, callsLeftIn("hanging.jar"));

            HttpResponse<String> again = reload(gateway);

            assertEquals(409, again.statusCode(), again.body());
            assertTrue(again.body().contains(refusal("hanging", "its descriptor() did not return within 1 s")),
                    again.body());
            assertTrue(again.body().contains("It is not called again until the jar changes."), again.body());
            assertEquals(1, callsLeftIn("hanging.jar"));

            PluginJarMaker.plugin(work, "hanging", "hanging", "").writeTo(plugins, "hanging.jar");
            HttpResponse<String> changed = reload(gateway);
            assertEquals(200, changed.statusCode(), changed.body());
            assertTrue(changed.body().contains("\"added\":[\"hanging\"]"), changed.body());
        }
    }

    @Test
    void aWatcherThatStopsMakesTheGatewayNotLiveAndSaysWhy() throws Exception {
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        try (TestGateway gateway = start(plugins, "true")) {
            HttpResponse<String> live = gateway.send(gateway.request("/observe/health/live").build());
            assertEquals(200, live.statusCode(), live.body());
            assertEquals("watching", check(live.body(), "plugins").getJsonObject("data").getString("watcher"));

            Files.delete(plugins);

            await(() -> gateway.send(gateway.request("/observe/health/live").build()),
                    response -> response.statusCode() == 503);
            JsonObject stopped = check(gateway.send(gateway.request("/observe/health").build()).body(), "plugins");
            assertEquals("DOWN", stopped.getString("status"));
            assertEquals("stopped", stopped.getJsonObject("data").getString("watcher"));
            assertTrue(stopped.getJsonObject("data").getString("watcher_fault").contains("can no longer be watched"),
                    stopped.toString());
            assertEquals(200, gateway.send(gateway.request("/observe/health/ready").build()).statusCode());
        }
    }

    @Test
    void anUnwatchedFolderIsReportedOffAndLive() throws IOException {
        Path plugins = Files.createDirectories(work.resolve("plugins"));
        try (TestGateway gateway = start(plugins, "false")) {
            HttpResponse<String> live = gateway.send(gateway.request("/observe/health/live").build());

            assertEquals(200, live.statusCode(), live.body());
            JsonObject data = check(live.body(), "plugins").getJsonObject("data");
            assertEquals("off", data.getString("watcher"));
            assertEquals("gateway.plugins.watch is false", data.getString("watcher_off"));
        }
    }

    private static TestGateway start(Path plugins, String watch) {
        return TestGateway.start(Map.of("gateway.plugins.dir", plugins.toString(), "gateway.plugins.watch", watch,
                "gateway.plugins.settle", "100ms", "gateway.plugins.call-timeout", CALL_TIMEOUT,
                "gateway.access-log", "off"), Map.of());
    }

    /** A plugin of package {@code com.example.<name>} made of {@code members}, in {@code <name>.jar}. */
    private PluginJarMaker faulty(String name, String members) {
        return new PluginJarMaker(work).source("com.example." + name + ".Plugin", """
                        package com.example.%s;

                        public final class Plugin implements io.aigw.spi.ProviderPlugin {
                        %s
                        }
                        """.formatted(name, members))
                .service("com.example." + name + ".Plugin");
    }

    /** A descriptor() that works, for a plugin whose fault is elsewhere. */
    private static String descriptor(String prefix) {
        return """
                    @Override
                    public io.aigw.spi.ProviderDescriptor descriptor() {
                        return io.aigw.spi.ProviderDescriptor.builder("%s").defaultModel("%s-1")
                                .baseUrl("https://%s.example/v1").apiKeyVariable("X_API_KEY")
                                .baseUrlVariable("X_BASE_URL").build();
                    }
                """.formatted(prefix, prefix, prefix);
    }

    private static String refusal(String name, String why) {
        return "The plugin " + name + ".jar (com.example." + name + ".Plugin) is refused: " + why;
    }

    /** One record, at WARNING or above, of one line starting with {@code expected}, and no stack. */
    private static void assertOneLine(List<LogRecord> logged, String expected) {
        assertEquals(1, logged.size(), () -> logged.stream().map(LogRecord::getMessage).toList().toString());
        LogRecord record = logged.getFirst();
        assertTrue(record.getMessage().startsWith(expected), record.getMessage());
        assertFalse(record.getMessage().contains("\n"), record.getMessage());
        assertNull(record.getThrown(), "a stack was logged: " + record.getThrown());
    }

    private static List<LogRecord> warnings(LogRecords logs) {
        return logs.records().stream().filter(record -> record.getLevel().intValue() >= Level.WARNING.intValue())
                .toList();
    }

    private static HttpResponse<String> reload(TestGateway gateway) {
        return gateway.send(gateway.request("/admin/v1/plugins/reload").timeout(WAIT)
                .POST(HttpRequest.BodyPublishers.noBody()).build());
    }

    /** How many threads calling into the jar are still alive. */
    private static long callsLeftIn(String jar) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(thread -> thread.getName().startsWith("aigw-plugin-call " + jar)).count();
    }

    private static String plugins(TestGateway gateway) {
        return gateway.send(gateway.request("/admin/v1/plugins").build()).body();
    }

    /** The health check named {@code name} in a health answer. */
    private static JsonObject check(String health, String name) {
        return Json.createReader(new StringReader(health)).readObject().getJsonArray("checks")
                .getValuesAs(JsonObject.class).stream().filter(check -> check.getString("name").equals(name))
                .findFirst().orElseThrow(() -> new AssertionError("no check " + name + " in " + health));
    }

    private static <T> void await(Supplier<T> seen, Predicate<T> done) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        T now = seen.get();
        while (!done.test(now) && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
            now = seen.get();
        }
        assertTrue(done.test(now), String.valueOf(now));
    }

    private static Path uncheckedFolder(Path folder) {
        try {
            return Files.createDirectories(folder);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }

    private static Arguments fault(String what, String name, String members, String why) {
        return Arguments.of(what, name, members, why);
    }
}
