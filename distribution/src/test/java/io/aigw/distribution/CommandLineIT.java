package io.aigw.distribution;

import static io.aigw.distribution.GatewayProcess.env;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What a newcomer types first: bin/gateway --help, version, a mistake, a start on a port that is taken. */
public final class CommandLineIT {
    @TempDir
    Path work;
    private Path home;

    @BeforeEach
    void copyDistribution() throws IOException {
        home = GatewayProcess.copyDistribution(work);
    }

    @ParameterizedTest
    @ValueSource(strings = {"--help", "-h", "help"})
    void helpPrintsTheCommandsAndTheEnvironmentAndStartsNoServer(String argument) throws Exception {
        try (GatewayProcess help = GatewayProcess.run(home, env(), argument)) {
            assertEquals(0, help.awaitExit(), help.output());
            String usage = help.standardOutput();
            assertTrue(usage.startsWith("usage: gateway "), usage);
            for (String mentioned : List.of("gateway keys create --name <name> [--admin] | list | revoke <id>",
                    "gateway migrate", "gateway version", "GATEWAY_PORT", "GATEWAY_MASTER_KEY", "GATEWAY_DATABASE_URL",
                    "GATEWAY_JAVA_OPTS", "GATEWAY_AOT_CACHE", "JAVA_HOME",
                    // Read from the installed plugins: each names its own.
                    "OPENAI_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_API_KEY", "OPENROUTER_API_KEY")) {
                assertTrue(usage.contains(mentioned), mentioned + " in:\n" + usage);
            }
            assertEquals("", help.errors());
        }
        assertFalse(Files.exists(home.resolve("data")), "help opened the database");
    }

    @ParameterizedTest
    @ValueSource(strings = {"version", "--version"})
    void versionPrintsTheBuildsVersionAndStartsNoServer(String argument) throws Exception {
        try (GatewayProcess version = GatewayProcess.run(home, env(), argument)) {
            assertEquals(0, version.awaitExit(), version.output());
            String printed = version.standardOutput();
            assertTrue(printed.matches("aigw " + System.getProperty("gateway.version").replace(".", "\\.")
                    + " \\(Java \\d+.*\\)"), printed);
            assertEquals("", version.errors());
        }
        assertFalse(Files.exists(home.resolve("data")), "version opened the database");
    }

    @Test
    void anUnknownCommandGetsTheUsageOnStderrAndAnExitCodeOfTwo() throws Exception {
        try (GatewayProcess mistake = GatewayProcess.run(home, env(), "start")) {
            assertEquals(2, mistake.awaitExit(), mistake.output());
            assertTrue(mistake.errors().startsWith("gateway: unknown command 'start'\nusage: gateway "),
                    mistake.errors());
            assertEquals("", mistake.standardOutput());
        }
        assertFalse(Files.exists(home.resolve("data")), "a mistaken command opened the database");
    }

    /**
     * One line on stderr that names the port and its setting, exit 2, and nothing made on the way:
     * the next start is still the first one, which makes the admin key and shows it. The start is a
     * fresh distribution's, which on a JDK 25 records its AOT cache: the recording is dropped unsaid.
     */
    @Test
    void aPortInUseIsOneLineOnStderrAndExitCodeTwo() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("0.0.0.0", 0));
            int port = taken.getLocalPort();
            var freshStart = env("GATEWAY_PORT", Integer.toString(port), "GATEWAY_AOT_CACHE", "");
            try (GatewayProcess gateway = GatewayProcess.run(home, freshStart)) {
                assertEquals(2, gateway.awaitExit(), gateway.output());
                assertEquals("The gateway cannot start: port " + port + " is in use (gateway.port / GATEWAY_PORT):"
                        + " stop what listens there, or choose another port.", gateway.errors());
                assertEquals("", gateway.standardOutput());
            }
        }
        try (GatewayProcess gateway = GatewayProcess.start(home, env())) {
            assertTrue(gateway.lineAfter("it is shown only now:").startsWith("sk-gw-"), gateway.output());
        }
    }

    /**
     * The README's two commands in order: the first starts target/gateway, which leaves its database
     * in data/; each test's copy of the distribution is still as shipped, so help opens none there.
     */
    @Test
    void aCopyOfADistributionThatHasRunHasNoDatabaseAndHelpOpensNone() throws Exception {
        Path used = GatewayProcess.copyDistribution(work.resolve("used"));
        try (GatewayProcess migrate = GatewayProcess.run(used, env(), "migrate")) {
            assertEquals(0, migrate.awaitExit(), migrate.output());
        }
        assertTrue(Files.isRegularFile(used.resolve("data/gateway.db")));

        Path copy = GatewayProcess.copyDistribution(used, work.resolve("copy"));
        try (GatewayProcess help = GatewayProcess.run(copy, env(), "help")) {
            assertEquals(0, help.awaitExit(), help.output());
        }
        assertFalse(Files.exists(copy.resolve("data")), "help opened the database");
    }

    /**
     * conf/gateway.yaml says what the code does: the admin key is made by the first start on an empty
     * database, and a later start makes none.
     */
    @Test
    void theAdminKeyIsMadeByTheFirstStartOnlyAsTheShippedSettingsSay() throws Exception {
        String settings = Files.readString(home.resolve("conf/gateway.yaml"));
        assertTrue(settings.contains("Unset: the first start on an empty database makes an admin key"), settings);
        assertFalse(settings.contains("at each start"), settings);
        try (GatewayProcess first = GatewayProcess.start(home, env())) {
            assertTrue(first.lineAfter("it is shown only now:").startsWith("sk-gw-"), first.output());
        }
        try (GatewayProcess second = GatewayProcess.start(home, env())) {
            assertFalse(second.output().contains("sk-gw-"), second.output());
        }
    }
}
