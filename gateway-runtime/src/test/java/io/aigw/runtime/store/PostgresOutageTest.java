package io.aigw.runtime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.LogRecords;
import io.aigw.runtime.testing.PrivatePostgres;
import io.aigw.runtime.testing.TestGateway;
import java.io.IOException;
import java.net.InetAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * PostgreSQL stopped under a running gateway, then started again: a private cluster (the shared
 * one must stay up), skipped without PostgreSQL's programs on a laptop, failed without them in CI.
 *
 * <p>While it is down, a key check that needs the database answers 503 with {@code Retry-After}
 * within the configured timeout (1 s here, asserted through a 10 s client timeout: before, it took
 * Hikari's 30 s and answered 500), a key used before keeps working, readiness says not ready at
 * once, and usage records wait in memory to be written when the database is back.
 */
public final class PostgresOutageTest {
    /** Far above the 1 s database timeout configured, far below the 30 s a check used to block for. */
    private static final Duration PATIENCE = Duration.ofSeconds(10);
    private static final String UNAVAILABLE = "{\"error\":{\"message\":\"The gateway's database cannot serve this"
            + " request just now; retry after the time in Retry-After.\",\"type\":\"server_error\","
            + "\"param\":null,\"code\":\"database_unavailable\"}}";
    private static final String CHAT = "{\"model\":\"openai/gpt-5\",\"messages\":[]}";

    private PrivatePostgres cluster;
    private MockWebServer upstream;
    private TestGateway gateway;

    @BeforeEach
    void start() throws IOException {
        cluster = PrivatePostgres.start();
        upstream = new MockWebServer();
        upstream.start(InetAddress.getLoopbackAddress(), 0);
    }

    @AfterEach
    void stop() throws IOException {
        if (gateway != null) {
            gateway.close();
        }
        upstream.close();
        cluster.close();
    }

    @Test
    void duringAnOutageKeyChecksFailFastRecentKeysWorkAndUsageIsWrittenWhenTheDatabaseReturns() throws Exception {
        gateway = startGateway(10_000);
        KeysApi api = KeysApi.of(gateway);
        String seen = api.createKey("used-before").getString("key");
        String unseen = api.createKey("never-used").getString("key");
        assertEquals(200, api.models(seen).statusCode());
        String seenId = api.listed().stream().map(value -> value.asJsonObject())
                .filter(key -> key.getString("name").equals("used-before")).findFirst().orElseThrow()
                .getString("id");
        // A record written before the outage: the usage writer's statements are then prepared on a
        // connection the outage ends, and must be prepared again on the one after it.
        upstream.enqueue(completion());
        assertEquals(200, send(api.request("/api/v1/chat/completions", seen)
                .POST(HttpRequest.BodyPublishers.ofString(CHAT))).statusCode());
        assertEquals(List.of(seenId), eventually(this::usageKeys, List.of(seenId)));

        try (LogRecords logs = LogRecords.capture()) {
            cluster.stopServer();

            HttpResponse<String> refused = send(api.request("/api/v1/models", unseen));
            assertEquals(503, refused.statusCode(), refused.body());
            assertEquals(Optional.of("1"), refused.headers().firstValue("Retry-After"));
            assertEquals(UNAVAILABLE, refused.body());
            assertEquals(200, send(api.request("/api/v1/models", seen)).statusCode(),
                    "a key used before the outage keeps working, past its cache time of 1 ms");
            HttpResponse<String> ready = send(HttpRequest.newBuilder(gateway.uri("/observe/health/ready")));
            assertEquals(503, ready.statusCode());
            assertTrue(ready.body().contains("\"store\":\"down\"") && ready.body().contains(
                    "\"store_fault\":\"unreachable\""), ready.body());
            HttpResponse<String> create = send(api.request("/admin/v1/keys", TestGateway.KEY)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"during-outage\"}")));
            assertEquals(503, create.statusCode(), create.body());
            assertEquals(UNAVAILABLE, create.body());
            for (int i = 0; i < 3; i++) {
                upstream.enqueue(completion());
                assertEquals(200, send(api.request("/api/v1/chat/completions", seen)
                        .POST(HttpRequest.BodyPublishers.ofString(CHAT))).statusCode());
            }

            cluster.startServer();

            assertEquals(200, eventually(() -> send(HttpRequest.newBuilder(gateway.uri("/observe/health/ready")))
                    .statusCode(), 200), "ready again once the database answers");
            List<String> all = List.of(seenId, seenId, seenId, seenId);
            assertEquals(all, eventually(this::usageKeys, all),
                    "the records made during the outage are written once it is over");
            assertEquals(1, logs.messages(Level.SEVERE, "io.aigw").size(), logs.messages(Level.SEVERE).toString());
        }
    }

    @Test
    void usageRecordsPastTheQueueAreDroppedAndCountedTheRestWritten() throws Exception {
        gateway = startGateway(2);
        double droppedBefore = droppedMetric();

        cluster.stopServer();
        for (int i = 0; i < 5; i++) {
            upstream.enqueue(completion());
            assertEquals(200, gateway.chat(CHAT).statusCode());
        }

        assertEquals(droppedBefore + 3, eventually(this::droppedMetric, droppedBefore + 3));
        cluster.startServer();
        assertEquals(List.of("master", "master"), eventually(this::usageKeys, List.of("master", "master")));
    }

    private TestGateway startGateway(int usageQueue) {
        Map<String, String> config = new HashMap<>();
        config.put("gateway.database.url", cluster.url());
        config.put("gateway.database.user", cluster.user());
        config.put("gateway.database.timeout", "1s");
        config.put("gateway.database.check-interval", "200ms");
        // Every check after the first goes to the database: what works in the outage works from the cache.
        config.put("gateway.keys.cache-ttl", "1ms");
        config.put("gateway.usage.queue-size", Integer.toString(usageQueue));
        config.put("gateway.access-log", "off");
        config.put("providers.openai.base-url", upstream.url("/v1").toString());
        return TestGateway.start(config, Map.of("OPENAI_API_KEY", "sk-upstream-openai"));
    }

    /** Sends with a client timeout: a check that blocks longer than that fails the test. */
    private HttpResponse<String> send(HttpRequest.Builder request) {
        return gateway.send(request.timeout(PATIENCE).build());
    }

    private static MockResponse completion() {
        return new MockResponse.Builder().addHeader("Content-Type", "application/json")
                .body("{\"object\":\"chat.completion\",\"choices\":[],\"usage\":{\"prompt_tokens\":1,"
                        + "\"completion_tokens\":1,\"total_tokens\":2}}").build();
    }

    private List<String> usageKeys() {
        try (Connection connection = cluster.connect();
             ResultSet rows = connection.createStatement().executeQuery(
                     "SELECT key_id FROM usage_records ORDER BY recorded_at")) {
            List<String> keys = new ArrayList<>();
            while (rows.next()) {
                keys.add(rows.getString(1));
            }
            return keys;
        } catch (SQLException e) {
            return List.of("not readable: " + e.getMessage());
        }
    }

    private double droppedMetric() {
        String metrics = gateway.send(HttpRequest.newBuilder(gateway.uri("/observe/metrics")).build()).body();
        Matcher sample = Pattern.compile("^gateway_usage_records_dropped_total(\\{[^}]*})? (\\S+)$", Pattern.MULTILINE)
                .matcher(metrics);
        // One series per reason (queue_full, store_down, ...): the drops of every reason.
        double dropped = 0;
        while (sample.find()) {
            dropped += Double.parseDouble(sample.group(2));
        }
        return dropped;
    }

    /** Asks until the answer is {@code expected} or 30 s have passed, and returns the last answer. */
    private static <T> T eventually(Supplier<T> answer, T expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        T last = answer.get();
        while (!last.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(100);
            last = answer.get();
        }
        return last;
    }
}
