package io.aigw.runtime.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.TestGateway;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.io.StringReader;
import java.math.BigDecimal;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A provider with a pool of upstream keys, each key a fake upstream of its own that accepts only
 * that key: the keys share the requests by weight, a 429, a refused key and a failing one are
 * moved past before the caller sees them, and a session stays on one key.
 */
public final class UpstreamPoolsTest {
    static final String CHAT = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";

    private final List<KeyedUpstream> upstreams = new ArrayList<>();
    private TestGateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
        upstreams.forEach(KeyedUpstream::close);
    }

    @Test
    void theKeysShareTheRequestsByWeightAndEachRecordNamesItsKey() throws Exception {
        KeyedUpstream heavy = upstream("team-a");
        KeyedUpstream light = upstream("team-b");
        gateway = start(Map.of(), key(0, heavy, 3), key(1, light, 1));

        for (int i = 0; i < 1000; i++) {
            assertEquals(200, gateway.chat(CHAT).statusCode());
        }

        // 750 expected of 1000 at 3:1; the binomial's deviation is 13.7, so 60 is over four of them.
        assertEquals(1000, heavy.requests() + light.requests());
        assertTrue(Math.abs(heavy.requests() - 750) <= 60, "team-a got " + heavy.requests() + " of 1000");
        Map<String, Integer> recorded = recordsByKey(1000);
        assertEquals(Map.of("team-a", heavy.requests(), "team-b", light.requests()), recorded);

        // Each answer: 3 prompt and 2 completion tokens of gpt-5, at $1.25 and $10 a million: 23,750 nano-dollars.
        HttpResponse<String> report = gateway.send(gateway.request("/admin/v1/usage?group_by=upstream_key").GET()
                .build());
        assertEquals(200, report.statusCode(), report.body());
        JsonObject json = Json.createReader(new StringReader(report.body())).readObject();
        assertEquals(List.of("upstream_key"), json.getJsonArray("group_by").getValuesAs(JsonString::getString));
        assertEquals(List.of(row("team-a", heavy.requests()), row("team-b", light.requests())),
                json.getJsonArray("data").stream().map(JsonObject.class::cast).map(row -> row(
                        row.getString("provider"), row.getString("upstream_key"), row.getInt("requests"),
                        row.getInt("total_tokens"), new BigDecimal(row.getString("cost_usd")).movePointRight(9)
                                .longValueExact())).toList());
        HttpResponse<String> csv = gateway.send(gateway.request("/admin/v1/usage?group_by=upstream_key&format=csv")
                .GET().build());
        assertEquals("\"provider\",\"upstream_key\",\"requests\",\"prompt_tokens\",\"completion_tokens\","
                + "\"total_tokens\",\"cost_usd\",\"unknown_cost\",\"estimated_cost\"\r\n"
                + csvRow("team-a", heavy.requests()) + csvRow("team-b", light.requests()), csv.body());
    }

    private static List<Object> row(String upstreamKey, int requests) {
        return row("openai", upstreamKey, requests, requests * 5, requests * 23_750L);
    }

    private static List<Object> row(String provider, String upstreamKey, int requests, int tokens, long costNanos) {
        return List.of(provider, upstreamKey, requests, tokens, costNanos);
    }

    private static String csvRow(String upstreamKey, int requests) {
        return "\"openai\",\"" + upstreamKey + "\"," + requests + "," + requests * 3 + "," + requests * 2 + ","
                + requests * 5 + "," + BigDecimal.valueOf(requests * 23_750L, 9).toPlainString()
                + ",0,0\r\n";
    }

    @Test
    void a429MovesTheAttemptToAnotherKeyAndCoolsTheKeyForItsRetryAfter() throws Exception {
        KeyedUpstream limited = upstream("limited");
        KeyedUpstream spare = upstream("spare");
        limited.answers(() -> KeyedUpstream.status(429, "Retry-After", "2"));
        gateway = start(Map.of(), key(0, limited, 100), key(1, spare, 1));

        for (int i = 0; i < 20; i++) {
            HttpResponse<String> response = gateway.chat(CHAT);
            assertEquals(200, response.statusCode(), response.body());
            assertTrue(response.body().contains("\"spare\""), response.body());
        }
        assertEquals(1, limited.requests(), "a key cooling down is not called");
        JsonObject cooling = upstreamKey("limited");
        assertEquals("cooling", cooling.getString("state"));
        assertTrue(cooling.getString("last_error").startsWith("429"), cooling.toString());

        limited.answersWell();
        Thread.sleep(2100);
        for (int i = 0; i < 20 && limited.requests() == 1; i++) {
            gateway.chat(CHAT);
        }
        assertEquals(2, limited.requests(), "the key is called again once its Retry-After is over");
        assertEquals("healthy", upstreamKey("limited").getString("state"));
    }

    @Test
    void whenEveryKeyCoolsTheCallerIsToldToWaitWithoutAnotherCallUpstream() throws Exception {
        KeyedUpstream only = upstream("only");
        only.answers(() -> KeyedUpstream.status(429, "Retry-After", "30"));
        gateway = start(Map.of(), key(0, only, 1));

        HttpResponse<String> relayed = gateway.chat(CHAT);
        assertEquals(429, relayed.statusCode());
        assertEquals("30", relayed.headers().firstValue("Retry-After").orElseThrow());
        HttpResponse<String> waiting = gateway.chat(CHAT);

        assertEquals(429, waiting.statusCode());
        assertTrue(Integer.parseInt(waiting.headers().firstValue("Retry-After").orElseThrow()) >= 29);
        assertTrue(waiting.body().contains("Upstream openai is rate-limiting every key of the gateway"), waiting.body());
        assertEquals(1, only.requests());
    }

    @Test
    void aRefusedKeyIsSkippedAndReportedAsFailed() throws Exception {
        KeyedUpstream revoked = upstream("revoked");
        KeyedUpstream good = upstream("good");
        revoked.answers(() -> KeyedUpstream.status(401));
        gateway = start(Map.of(), key(0, revoked, 100), key(1, good, 1));

        for (int i = 0; i < 20; i++) {
            assertEquals(200, gateway.chat(CHAT).statusCode());
        }

        assertEquals(1, revoked.requests());
        JsonObject failed = upstreamKey("revoked");
        assertEquals("failed", failed.getString("state"));
        assertEquals("refused the key (401)", failed.getString("last_error"));
        assertEquals("healthy", upstreamKey("good").getString("state"));
        assertTrue(!adminUpstreams().contains(revoked.key), "the admin API never shows a key");
    }

    @Test
    void aKeyThatKeepsFailingIsEjectedAndProbedBackAfterItsInterval() throws Exception {
        KeyedUpstream flaky = upstream("flaky");
        KeyedUpstream steady = upstream("steady");
        flaky.answers(() -> KeyedUpstream.status(503));
        gateway = start(Map.of("gateway.pools.eject-after", "2", "gateway.pools.ejection", "1s"),
                key(0, flaky, 100), key(1, steady, 1));

        for (int i = 0; i < 10; i++) {
            assertEquals(200, gateway.chat(CHAT).statusCode());
        }
        assertEquals(2, flaky.requests(), "ejected after two failures in a row");
        assertEquals("ejected", upstreamKey("flaky").getString("state"));

        flaky.answersWell();
        Thread.sleep(1100);
        assertEquals("probation", upstreamKey("flaky").getString("state"));
        for (int i = 0; i < 20 && flaky.requests() == 2; i++) {
            gateway.chat(CHAT);
        }
        assertEquals(3, flaky.requests());
        assertEquals("healthy", upstreamKey("flaky").getString("state"));
    }

    @Test
    void aSessionStaysOnOneKeyWhileItIsHealthyAndMovesWhenItCools() throws Exception {
        List<KeyedUpstream> keys = List.of(upstream("k1"), upstream("k2"), upstream("k3"));
        gateway = start(Map.of(), key(0, keys.get(0), 1), key(1, keys.get(1), 1), key(2, keys.get(2), 1));

        for (int turn = 0; turn < 20; turn++) {
            assertEquals(200, session("agent-session-7").statusCode());
        }
        KeyedUpstream first = keys.stream().filter(key -> key.requests() > 0).findFirst().orElseThrow();
        assertEquals(20, first.requests(), "every turn on one key");

        first.answers(() -> KeyedUpstream.status(429, "Retry-After", "30"));
        for (int turn = 0; turn < 5; turn++) {
            assertEquals(200, session("agent-session-7").statusCode());
        }
        assertEquals(21, first.requests(), "the cooling key is left after its 429");
        List<Integer> others = keys.stream().filter(key -> key != first).map(KeyedUpstream::requests).toList();
        assertTrue(others.contains(5) && others.contains(0), "the session moved to one other key: " + others);
    }

    private HttpResponse<String> session(String id) {
        return gateway.send(gateway.request("/api/v1/chat/completions").header("Content-Type", "application/json")
                .header("X-Session-Id", id).POST(HttpRequest.BodyPublishers.ofString(CHAT)).build());
    }

    private KeyedUpstream upstream(String name) throws Exception {
        KeyedUpstream upstream = new KeyedUpstream(name);
        upstreams.add(upstream);
        return upstream;
    }

    static Map<String, String> key(int index, KeyedUpstream upstream, int weight) {
        String prefix = "providers.openai.keys." + index + ".";
        return Map.of(prefix + "name", upstream.name, prefix + "api-key", upstream.key, prefix + "weight",
                Integer.toString(weight), prefix + "base-url", upstream.baseUrl());
    }

    @SafeVarargs
    static TestGateway start(Map<String, String> settings, Map<String, String>... keys) {
        Map<String, String> config = new HashMap<>(settings);
        for (Map<String, String> key : keys) {
            config.putAll(key);
        }
        return TestGateway.start(config, Map.of());
    }

    private String adminUpstreams() {
        HttpResponse<String> response = gateway.send(gateway.request("/admin/v1/upstreams").GET().build());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }

    private JsonObject upstreamKey(String name) {
        return upstreamKey(adminUpstreams(), name);
    }

    static JsonObject upstreamKey(String body, String name) {
        JsonObject list = Json.createReader(new StringReader(body)).readObject();
        return list.getJsonArray("data").stream().map(JsonObject.class::cast)
                .filter(provider -> provider.getString("provider").equals("openai"))
                .flatMap(provider -> provider.getJsonArray("keys").stream().map(JsonObject.class::cast))
                .filter(key -> key.getString("name").equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no key " + name + " in " + body));
    }

    /** The usage records' count by upstream key, once {@code count} are written. */
    private Map<String, Integer> recordsByKey(int count) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            Map<String, Integer> byKey = new HashMap<>();
            int total = 0;
            try (Connection connection = DriverManager.getConnection(gateway.databaseUrl());
                 Statement sql = connection.createStatement();
                 ResultSet rows = sql.executeQuery("SELECT upstream_key, COUNT(*) FROM usage_records"
                         + " GROUP BY upstream_key")) {
                while (rows.next()) {
                    byKey.put(rows.getString(1), rows.getInt(2));
                    total += rows.getInt(2);
                }
            }
            if (total >= count || System.nanoTime() > deadline) {
                return byKey;
            }
            Thread.sleep(50);
        }
    }
}
