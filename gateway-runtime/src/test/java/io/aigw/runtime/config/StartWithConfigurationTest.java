package io.aigw.runtime.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.Main;
import io.aigw.runtime.testing.LogRecords;
import io.aigw.runtime.testing.TestGateway;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real {@link Main}, in a process of its own, started with a configuration file and an
 * environment full of variables that are not the gateway's: a misspelt key stops it before it
 * listens, and the distribution's file starts it. A provider section no plugin claims is only said.
 */
public final class StartWithConfigurationTest {
    private static final Path SHIPPED_FILE = Path.of("../distribution/src/dist/conf/gateway.yaml");
    private static final String LISTENING = "Gateway listening on port ";

    @TempDir
    Path folder;

    @Test
    void aMisspeltKeyStopsTheStartWithEveryUnknownPathNamed() throws Exception {
        Path file = Files.writeString(folder.resolve("gateway.yaml"), """
                gateway:
                  port: 0
                  alias:
                    fast: openai/gpt-5-mini
                providers:
                  openai:
                    kyes:
                      - name: first
                        api-key: sk-upstream-1
                server:
                  max-tcp-connections: 100
                """);

        Run run = start(file);

        assertFalse(run.listened(), run.output());
        assertEquals(2, run.exitCode(), run.output());
        assertTrue(run.errors().contains("The gateway cannot start: unknown configuration key gateway.alias (known:"
                + " access-log, aliases, auto, body-memory, catalogue, console, cost-header, database, fairness, host, http2, keys,"
                + " limits, master-key, max-body-size, max-concurrent-requests, name, observe, plugins, pools, port, protocols,"
                + " shutdown, timeouts, tracing, transport, upstream-tls, usage); unknown configuration key"
                + " providers.openai.kyes (known: api-key, base-url, default-model, enabled, headers, keys, models, prefix,"
                + " priority)."),
                run.output());
        assertFalse(run.output().contains("sk-upstream-1"), run.output());
    }

    @Test
    void aCommandOnTheStoreRefusesAMisspeltKeyRatherThanOpenAnotherDatabase() throws Exception {
        Path file = Files.writeString(folder.resolve("gateway.yaml"), """
                gateway:
                  databse:
                    url: jdbc:sqlite:/var/lib/gateway/elsewhere.db
                """);

        Run run = start(file, "keys", "list");

        assertEquals(2, run.exitCode(), run.output());
        assertTrue(run.errors().startsWith("gateway keys: unknown configuration key gateway.databse (known: access-log,"),
                run.output());
        assertFalse(Files.exists(folder.resolve("gateway.db")), "the command opened the default database");
    }

    @Test
    void theDistributionsFileStartsTheGatewayBesideVariablesThatAreNotItsOwn() throws Exception {
        Run run = start(SHIPPED_FILE);

        assertTrue(run.listened(), run.output());
    }

    @Test
    void aProviderSectionNoInstalledPluginDeclaresIsNamedWithTheInstalledOnes() {
        List<String> warnings;
        try (LogRecords logged = LogRecords.capture();
             TestGateway gateway = TestGateway.start(Map.of("providers.opneai.api-key", "sk-upstream-2"), Map.of())) {
            warnings = logged.messages(Level.WARNING, "io.aigw.runtime.plugin");
        }

        assertEquals(List.of("providers.opneai configures no installed plugin (installed: acme, anthropic, gemini,"
                + " openai, openrouter, xai): it applies once a plugin declaring the prefix 'opneai' is installed."),
                warnings);
    }

    /** Runs Main with {@code args} until it listens (then stops it) or exits, whichever comes first. */
    private Run start(Path configuration, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java")
                .toString(), "-Xmx128m", "-XX:TieredStopAtLevel=1", "--enable-native-access=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        Map<String, String> environment = builder.environment();
        environment.keySet().removeIf(name -> name.endsWith("_API_KEY") || name.startsWith("GATEWAY_"));
        environment.putAll(Map.of(
                "GATEWAY_CONFIG", configuration.toAbsolutePath().toString(),
                "GATEWAY_PORT", "0",
                "GATEWAY_DATABASE_URL", "jdbc:sqlite:" + folder.resolve("gateway.db"),
                "GATEWAY_MASTER_KEY", "sk-gw-start-test-0000000000000000",
                // Not the gateway's: the CLI's, the launcher's, Helidon's spelling of a server key, a shell's.
                "GATEWAY_URL", "http://127.0.0.1:1",
                "GATEWAY_ADMIN_KEY", "sk-gw-admin-0000000000000000000",
                "GATEWAY_JAVA_OPTS", "-Xss1m",
                "SERVER_PORT", "1",
                "PROVIDERS", "none",
                "GATEWAY", "x"));
        Process process = builder.start();
        List<String> output = new CopyOnWriteArrayList<>();
        List<String> errors = new CopyOnWriteArrayList<>();
        CompletableFuture<Boolean> listened = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> read(process.getInputStream(), output, listened));
        Thread.ofPlatform().daemon().start(() -> read(process.getErrorStream(), errors, new CompletableFuture<>()));
        process.onExit().thenRun(() -> listened.complete(false));
        try {
            boolean started = listened.get(2, TimeUnit.MINUTES);
            process.destroy();
            assertTrue(process.waitFor(1, TimeUnit.MINUTES), "the gateway did not stop");
            return new Run(started, process.exitValue(), String.join("\n", output), String.join("\n", errors));
        } catch (Exception e) {
            process.destroyForcibly();
            throw new AssertionError("the gateway neither listened nor stopped: " + output + errors, e);
        }
    }

    private static void read(InputStream stream, List<String> lines, CompletableFuture<Boolean> listened) {
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
            for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                lines.add(line);
                if (line.startsWith(LISTENING)) {
                    listened.complete(true);
                }
            }
        } catch (IOException e) {
            lines.add("(unreadable: " + e + ")");
        }
    }

    /** How a start went: whether it listened, its exit code, what it printed on stdout and stderr. */
    private record Run(boolean listened, int exitCode, String standardOutput, String errors) {
        String output() {
            return standardOutput + "\n" + errors;
        }
    }
}
