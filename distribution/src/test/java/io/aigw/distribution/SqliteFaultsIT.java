package io.aigw.distribution;

import static io.aigw.distribution.GatewayProcess.env;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real bin/gateway on an SQLite file that stops taking writes while it runs: its files made
 * immutable ({@code chattr +i}, which binds root too, where a chmod would not), or its disk full (a
 * small tmpfs over data/, mounted in a mount namespace of the gateway's own with {@code unshare -m},
 * so nothing outside it sees the mount and it goes with the process). Both need root: without it a
 * test is skipped on a laptop and fails in CI ({@code CI=true}).
 *
 * <p>The gateway must live through it (an immutable {@code -shm} file, which SQLite maps into
 * memory, used to kill the JVM with SIGBUS), report itself not ready with the reason, refuse a new
 * key with 503 in the OpenAI shape, keep usage records (counting those past its queue) and log the
 * outage once; and serve again once the file can be written.
 */
public final class SqliteFaultsIT {
    private static final String MASTER = "sk-gw-distribution-test-0123456789";
    private static final String UNAVAILABLE = "{\"error\":{\"message\":\"The gateway's database cannot serve this"
            + " request just now; retry after the time in Retry-After.\",\"type\":\"server_error\",\"param\":null,"
            + "\"code\":\"database_unavailable\"}}";
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @TempDir
    Path work;
    private Path home;

    @BeforeEach
    void copyDistribution() throws IOException {
        home = GatewayProcess.copyDistribution(work);
    }

    @Test
    void databaseFilesMadeImmutableLeaveTheGatewayRunningNotReadyAndRefusingNewKeys() throws Exception {
        try (FakeUpstream openai = new FakeUpstream();
             GatewayProcess gateway = GatewayProcess.start(home, faultEnvironment(openai))) {
            // A write first, so that the WAL (and, with SQLite's default, the -shm index) is in use.
            assertEquals(201, createKey(gateway, "before").statusCode(), gateway.output());
            List<Path> files = databaseFiles();
            immutable(true, files);
            try {
                assertBehavesAsDown(gateway, openai, "I/O error");
            } finally {
                immutable(false, files);
            }
            assertServesAgain(gateway);
            gateway.terminate();
            assertEquals(0, gateway.awaitExit(), gateway.output());
        }
        assertEquals(2, usageRecords(), "the records that waited are written; the other 3 were dropped");
    }

    @Test
    void aFullDiskLeavesTheGatewayRunningNotReadyAndRefusingNewKeys() throws Exception {
        Path data = Files.createDirectories(home.resolve("data"));
        List<String> ownTmpfs = List.of("unshare", "-m", "sh", "-c", "mount -t tmpfs -o size=16m aigw \"$0\" && exec \"$1\"",
                data.toString());
        requireRoot("mount a tmpfs in a mount namespace of its own", runs(List.of("unshare", "-m", "sh", "-c",
                "mount -t tmpfs -o size=1m aigw \"$0\"", work.toString())));
        try (FakeUpstream openai = new FakeUpstream();
             GatewayProcess gateway = GatewayProcess.start(ownTmpfs, home, faultEnvironment(openai))) {
            assertEquals(201, createKey(gateway, "before").statusCode(), gateway.output());
            // The gateway's data/ as its own mount namespace sees it.
            Path filler = Path.of("/proc/" + gateway.pid() + "/root").resolve(data.toString().substring(1))
                    .resolve("filler");
            fill(filler);
            try {
                assertBehavesAsDown(gateway, openai, "disk full");
            } finally {
                Files.delete(filler);
            }
            assertServesAgain(gateway);
        }
    }

    /**
     * The price of keeping SQLite's WAL index off a mapped file: one process holds the database, so
     * the keys command, run beside a gateway, is refused with what to do instead.
     */
    @Test
    void whileTheGatewayRunsTheKeysCommandIsToldToUseTheAdminApi() throws Exception {
        try (GatewayProcess gateway = GatewayProcess.start(home, env("GATEWAY_MASTER_KEY", MASTER));
             GatewayProcess keys = GatewayProcess.run(home, env(), "keys", "create", "--name", "beside")) {
            assertEquals(3, keys.awaitExit(), keys.output());
            assertTrue(keys.output().endsWith("(database is locked). Another process holds the file, such as a gateway"
                    + " running on it: while it runs, use its admin API."), keys.output());
            assertEquals(201, createKey(gateway, "through-the-api").statusCode(), gateway.output());
        }
    }

    private static Map<String, String> faultEnvironment(FakeUpstream openai) {
        return env("GATEWAY_MASTER_KEY", MASTER, "GATEWAY_ACCESS_LOG", "off", "GATEWAY_USAGE_QUEUE_SIZE", "2",
                "GATEWAY_DATABASE_CHECK_INTERVAL", "200ms", "OPENAI_API_KEY", "sk-upstream",
                "OPENAI_BASE_URL", openai.baseUrl());
    }

    /** What the gateway does while its database takes no writes: everything a user would notice. */
    private static void assertBehavesAsDown(GatewayProcess gateway, FakeUpstream openai, String fault)
            throws Exception {
        long severeBefore = severeLines(gateway);
        HttpResponse<String> refused = createKey(gateway, "during");
        assertEquals(503, refused.statusCode(), refused.body());
        assertEquals(UNAVAILABLE, refused.body());
        assertEquals(Optional.of("1"), refused.headers().firstValue("Retry-After"));

        HttpResponse<String> ready = gateway.get("/observe/health/ready", null);
        assertEquals(503, ready.statusCode(), ready.body());
        assertTrue(ready.body().contains("\"store_fault\":\"" + fault + "\""), ready.body());
        // Reads still work: keys are checked, completions served.
        for (int i = 0; i < 5; i++) {
            assertEquals(200, gateway.chat(MASTER, "{\"model\":\"openai/gpt-5\",\"messages\":[]}").statusCode());
        }
        assertEquals(5, openai.bodies().size());
        assertEquals(3.0, eventually(() -> droppedMetric(gateway), 3.0), "2 records wait, 3 are past the queue");
        assertTrue(gateway.isAlive(), gateway.output());
        assertEquals(severeBefore + 1, severeLines(gateway), "one error line for the outage:\n" + gateway.output());
    }

    private static void assertServesAgain(GatewayProcess gateway) throws Exception {
        assertEquals(200, eventually(() -> gateway.get("/observe/health/ready", null).statusCode(), 200),
                gateway.output());
        assertEquals(201, createKey(gateway, "after").statusCode(), gateway.output());
    }

    private static HttpResponse<String> createKey(GatewayProcess gateway, String name) throws InterruptedException {
        try {
            return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/admin/v1/keys"))
                    .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + MASTER)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + name + "\"}")).build(),
                    HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            gateway.awaitExit();
            throw new AssertionError("The gateway did not answer (" + e + "); it is " + (gateway.isAlive() ? "alive"
                    : "gone") + ":\n" + gateway.output(), e);
        }
    }

    private List<Path> databaseFiles() throws IOException {
        try (Stream<Path> files = Files.list(home.resolve("data"))) {
            List<Path> database = new ArrayList<>(files.filter(file -> file.getFileName().toString()
                    .startsWith("gateway.db")).toList());
            database.add(home.resolve("data"));
            return database;
        }
    }

    private long usageRecords() throws Exception {
        try (Connection database = DriverManager.getConnection("jdbc:sqlite:" + home.resolve("data/gateway.db"));
             ResultSet rows = database.createStatement().executeQuery("SELECT COUNT(*) FROM usage_records")) {
            rows.next();
            return rows.getLong(1);
        }
    }

    private static long severeLines(GatewayProcess gateway) {
        return gateway.output().lines().filter(line -> line.contains(" SEVERE ")).count();
    }

    private static double droppedMetric(GatewayProcess gateway) throws Exception {
        String metrics = gateway.get("/observe/metrics", null).body();
        Matcher sample = Pattern.compile("^gateway_usage_records_dropped_total(\\{[^}]*})? (\\S+)$", Pattern.MULTILINE)
                .matcher(metrics);
        // One series per reason (queue_full, store_down, ...): the drops of every reason.
        double dropped = 0;
        while (sample.find()) {
            dropped += Double.parseDouble(sample.group(2));
        }
        return dropped;
    }

    /** Sets or clears the immutable attribute, which root cannot write through either. */
    private static void immutable(boolean on, List<Path> files) {
        List<String> command = new ArrayList<>(List.of("chattr", on ? "+i" : "-i"));
        files.forEach(file -> command.add(file.toString()));
        requireRoot("make files immutable with chattr", runs(command));
    }

    /** Writes zeros to {@code file} until its file system is full. */
    private static void fill(Path file) throws IOException {
        byte[] block = new byte[64 * 1024];
        try (OutputStream out = Files.newOutputStream(file)) {
            while (true) {
                out.write(block);
            }
        } catch (IOException e) {
            if (!String.valueOf(e.getMessage()).contains("No space left")) {
                throw e;
            }
        }
    }

    /** Runs {@code command}; returns its output when it failed. */
    private static Optional<String> runs(List<String> command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            return process.waitFor(30, TimeUnit.SECONDS) && process.exitValue() == 0 ? Optional.empty()
                    : Optional.of(String.join(" ", command) + ": " + output);
        } catch (IOException e) {
            return Optional.of(String.join(" ", command) + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    /** A fault that needs root could not be made: skipped on a laptop, failed in CI, with the reason. */
    private static void requireRoot(String what, Optional<String> failure) {
        if (failure.isEmpty()) {
            return;
        }
        String reason = "Cannot " + what + " (root is needed): " + failure.get();
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            Assertions.fail(reason + " (CI=true, where the tests run as root)");
        }
        Assumptions.abort(reason);
    }

    private interface Answer<T> {
        T get() throws Exception;
    }

    /** Asks until the answer is {@code expected} or 30 s have passed, and returns the last answer. */
    private static <T> T eventually(Answer<T> answer, T expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        T last = answer.get();
        while (!last.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            last = answer.get();
        }
        return last;
    }
}
