package io.aigw.runtime.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.LocalRedis;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.SharedStores;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.JsonObject;
import java.math.BigDecimal;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A key's USD budget through real gateways, with PostgreSQL holding the keys and usage records and,
 * where replicas share limits, the shared Redis under this test's own key prefix (never flushed):
 * concurrent streams cannot overrun it, a cut stream settles, a failed call gives its reservation
 * back, and the spend so far is rebuilt from the usage records after a restart or a lost Redis count.
 *
 * <p>The model {@code openai/budget-test} is priced here at USD 10 a million prompt tokens and 100 a
 * million completion tokens. Each request asks for at most 500 completion tokens, so its estimate is
 * its prompt estimate (a body of about 150 bytes: under 40 tokens) plus USD 0.05; the upstream reports
 * 20 prompt and 480 completion tokens, USD 0.0482.
 */
public final class BudgetsTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String BODY = "{\"model\":\"openai/budget-test\",\"messages\":[{\"role\":\"user\","
            + "\"content\":\"Write a short poem\"}],\"stream\":true,\"max_tokens\":500}";
    private static final long REAL_NANOS = 20 * 10_000 + 480 * 100_000;
    private static final long ESTIMATE_NANOS = (BODY.getBytes(StandardCharsets.UTF_8).length + 3) / 4 * 10_000
            + 500 * 100_000;
    private static final String USAGE_EVENT = "data: {\"id\":\"c\",\"choices\":[],\"usage\":{\"prompt_tokens\":20,"
            + "\"completion_tokens\":480,\"total_tokens\":500}}\n\n";

    @RegisterExtension
    static final SharedStores STORES = new SharedStores();
    private ScriptedUpstream upstream;
    private final List<TestGateway> gateways = new ArrayList<>();

    @BeforeEach
    void startUpstream() throws Exception {
        upstream = new ScriptedUpstream();
    }

    @AfterEach
    void stop() throws Exception {
        gateways.forEach(TestGateway::close);
        upstream.close();
    }

    @Test
    void fortyConcurrentStreamsOnOneGatewaySpendNoMoreThanTheBudgetAndTheRestAreRefusedUnsent() throws Exception {
        TestGateway gateway = gateway(false);

        spendConcurrently(List.of(gateway));
    }

    @Test
    void fortyConcurrentStreamsOverTwoReplicasSharingRedisSpendNoMoreThanTheBudget() throws Exception {
        TestGateway a = gateway(true);
        TestGateway b = gateway(true);

        spendConcurrently(List.of(a, b));
    }

    @Test
    void aFailedCallGivesItsReservationBackAndACutStreamSettlesToWhatItUsed() throws Exception {
        TestGateway gateway = gateway(false);
        // Room for one estimate, not two.
        String[] key = key(gateway, "0.07");

        CompletableFuture<HttpResponse<String>> failed = send(gateway, key[0]);
        ScriptedUpstream.Exchange refusing = upstream.take(WAIT);
        byte[] error = "{\"error\":{\"message\":\"boom\",\"type\":\"server_error\"}}".getBytes(StandardCharsets.UTF_8);
        refusing.startAnswer(500, "application/json", error.length);
        refusing.write(new String(error, StandardCharsets.UTF_8));
        assertEquals(500, failed.get().statusCode());
        awaitRecords(key[1], 1);

        CompletableFuture<HttpResponse<String>> cut = send(gateway, key[0]);
        ScriptedUpstream.Exchange cutting = upstream.take(WAIT);
        HttpResponse<String> whileHeld = send(gateway, key[0]).get();
        assertEquals(429, whileHeld.statusCode(), "the stream in flight holds its estimate");
        assertInsufficientQuota(whileHeld);
        cutting.startStream(200, "text/event-stream");
        cutting.send("data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Roses\"}}]}\n\n");
        cutting.send("data: {\"id\":\"c\",\"choices\":[],\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":100,"
                + "\"total_tokens\":120}}\n\n");
        cutting.abort();
        assertEquals(200, cut.get().statusCode());
        awaitRecords(key[1], 3);

        // USD 0.0102 spent: another estimate fits now.
        CompletableFuture<HttpResponse<String>> next = send(gateway, key[0]);
        answer(upstream.take(WAIT));
        assertEquals(200, next.get().statusCode(), next.get().body());
        awaitRecords(key[1], 4);
        assertEquals(20 * 10_000 + 100 * 100_000 + REAL_NANOS, spentNanos(key[1]));
        JsonObject shown = KeysApi.json(KeysApi.of(gateway).send(KeysApi.of(gateway)
                .request("/admin/v1/keys/" + key[1], TestGateway.KEY).GET()).body());
        assertEquals(new BigDecimal("0.0584"), shown.getJsonNumber("spent_usd").bigDecimalValue());
        assertEquals(new BigDecimal("0.0116"), shown.getJsonNumber("remaining_usd").bigDecimalValue());
    }

    @Test
    void theSpendIsRebuiltFromTheUsageRecordsWhenRedisLostItsCountAndAfterARestart() throws Exception {
        TestGateway first = gateway(true);
        // One request's real cost and one estimate do not fit together.
        String[] key = key(first, "0.09");
        CompletableFuture<HttpResponse<String>> spent = send(first, key[0]);
        answer(upstream.take(WAIT));
        assertEquals(200, spent.get().statusCode());
        awaitRecords(key[1], 1);

        STORES.redis().close();
        HttpResponse<String> afterLoss = send(first, key[0]).get();
        assertEquals(429, afterLoss.statusCode(), "rebuilt from the database: " + afterLoss.body());
        assertInsufficientQuota(afterLoss);

        first.close();
        gateways.remove(first);
        TestGateway restarted = gateway(false);
        HttpResponse<String> afterRestart = send(restarted, key[0]).get();
        assertEquals(429, afterRestart.statusCode(), "rebuilt from the database: " + afterRestart.body());
        assertEquals(List.of(), upstream.pending(), "neither refusal reached the upstream");
        JsonObject shown = KeysApi.json(KeysApi.of(restarted).send(KeysApi.of(restarted)
                .request("/admin/v1/keys/" + key[1], TestGateway.KEY).GET()).body());
        assertEquals(new BigDecimal("0.0482"), shown.getJsonNumber("spent_usd").bigDecimalValue());
        assertEquals(new BigDecimal("0.0418"), shown.getJsonNumber("remaining_usd").bigDecimalValue());
    }

    @Test
    void aKeyWithABudgetAskingForAModelWithoutAPriceIsRefusedUnsentAndOneWithoutABudgetIsServed() throws Exception {
        TestGateway gateway = gateway(false);
        String[] budgeted = key(gateway, "5");
        String unpriced = BODY.replace("openai/budget-test", "openai/unpriced-model");

        HttpResponse<String> refused = gateway.client().send(KeysApi.of(gateway)
                .request("/api/v1/chat/completions", budgeted[0]).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(unpriced)).build(), HttpResponse.BodyHandlers.ofString());

        assertEquals(403, refused.statusCode(), refused.body());
        assertEquals("{\"error\":{\"message\":\"This workspace key has a USD budget and the model"
                + " 'openai/unpriced-model' has no price in the gateway's price table, so its cost cannot be reserved"
                + " before the call. Use a priced model, or ask an admin to price it (a pricing in"
                + " providers.<name>.models).\",\"type\":\"permission_error\",\"param\":\"model\","
                + "\"code\":\"model_not_priced\"}}", refused.body());
        assertEquals(List.of(), upstream.pending(), "never sent");

        String plain = KeysApi.json(KeysApi.of(gateway).create("{\"name\":\"plain\"}").body()).getString("key");
        CompletableFuture<HttpResponse<String>> served = gateway.client().sendAsync(KeysApi.of(gateway)
                .request("/api/v1/chat/completions", plain).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(unpriced)).build(), HttpResponse.BodyHandlers.ofString());
        answer(upstream.take(WAIT));
        assertEquals(200, served.get().statusCode());
    }

    /** 40 streams at once, spread over {@code replicas}, against a USD 1.00 budget, each answered as it arrives. */
    private void spendConcurrently(List<TestGateway> replicas) throws Exception {
        String[] key = key(replicas.get(0), "1.00");
        AtomicInteger answered = new AtomicInteger();
        Thread responder = Thread.ofVirtual().start(() -> {
            try {
                ScriptedUpstream.Exchange exchange;
                while ((exchange = upstream.take(WAIT)) != null) {
                    answer(exchange);
                    answered.incrementAndGet();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            sent.add(send(replicas.get(i % replicas.size()), key[0]));
        }
        int admitted = 0;
        for (CompletableFuture<HttpResponse<String>> answer : sent) {
            HttpResponse<String> response = answer.get();
            if (response.statusCode() == 200) {
                admitted++;
                assertTrue(response.body().endsWith("data: [DONE]\n\n"), response.body());
            } else {
                assertInsufficientQuota(response);
            }
        }
        awaitRecords(key[1], 40);
        responder.interrupt();
        responder.join();

        assertEquals(admitted, answered.get(), "only the admitted requests reached the upstream");
        assertEquals(admitted, query("SELECT COUNT(*) FROM usage_records WHERE key_id = ? AND status = 200", key[1]));
        long spent = spentNanos(key[1]);
        assertEquals(admitted * REAL_NANOS, spent);
        assertTrue(spent <= 1_000_000_000L + (ESTIMATE_NANOS - REAL_NANOS), "spent " + spent + " nano-dollars");
        // Reserved at the estimate, settled to less: at least what the estimates alone allow. More only when some
        // settled before the last were admitted, which 40 requests sent at once do not promise.
        assertTrue(admitted >= 1_000_000_000L / ESTIMATE_NANOS, admitted + " admitted");
    }

    private TestGateway gateway(boolean sharedRedis) {
        Map<String, String> config = new HashMap<>(Map.of("providers.openai.base-url", upstream.baseUrl(),
                "gateway.database.url", STORES.database().url(), "gateway.database.user", STORES.database().user(),
                "gateway.access-log", "off", "gateway.limits.redis-prefix", STORES.redis().name(),
                "providers.openai.models.0.id", "budget-test",
                "providers.openai.models.0.context-length", "4000",
                "providers.openai.models.0.pricing.input", "10",
                "providers.openai.models.0.pricing.output", "100"));
        Map<String, String> environment = new HashMap<>(Map.of("OPENAI_API_KEY", "sk-upstream"));
        if (sharedRedis) {
            environment.put("GATEWAY_REDIS_URL", LocalRedis.URL);
        }
        TestGateway gateway = TestGateway.start(config, environment);
        gateways.add(gateway);
        return gateway;
    }

    /** A key with a lifetime budget: its text and its id. */
    private static String[] key(TestGateway gateway, String dollars) {
        HttpResponse<String> created = KeysApi.of(gateway).create("{\"name\":\"budgeted\",\"budget_usd\":" + dollars
                + "}");
        assertEquals(201, created.statusCode(), created.body());
        JsonObject key = KeysApi.json(created.body());
        return new String[] {key.getString("key"), key.getString("id")};
    }

    private static CompletableFuture<HttpResponse<String>> send(TestGateway gateway, String key) {
        return gateway.client().sendAsync(KeysApi.of(gateway).request("/api/v1/chat/completions", key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(BODY)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /**
     * A whole stream with its usage, on a connection that then closes: this upstream takes one
     * request a connection.
     */
    private static void answer(ScriptedUpstream.Exchange exchange) throws Exception {
        exchange.write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n"
                + "Connection: close\r\n\r\n");
        exchange.send("data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Roses\"}}]}\n\n");
        exchange.send(USAGE_EVENT);
        exchange.send("data: [DONE]\n\n");
        exchange.end();
    }

    private static void assertInsufficientQuota(HttpResponse<String> response) {
        assertEquals(429, response.statusCode(), response.body());
        assertTrue(response.body().startsWith("{\"error\":{\"message\":\"This workspace key's budget of USD "),
                response.body());
        assertTrue(response.body().endsWith("\"type\":\"insufficient_quota\",\"param\":null,"
                + "\"code\":\"insufficient_quota\"}}"), response.body());
    }

    /**
     * Waits until the key has {@code count} usage records, refused requests' included: they are
     * written in batches, off the request.
     */
    private static void awaitRecords(String keyId, int count) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        int found;
        do {
            found = (int) query("SELECT COUNT(*) FROM usage_records WHERE key_id = ?", keyId);
            if (found >= count) {
                assertEquals(count, found, "usage records of " + keyId);
                return;
            }
            Thread.sleep(20);
        } while (System.nanoTime() < deadline);
        throw new AssertionError(found + " usage records of " + keyId + ", not " + count);
    }

    private static long spentNanos(String keyId) throws SQLException {
        return query("SELECT COALESCE(SUM(cost_nanos), 0) FROM usage_records WHERE key_id = ?", keyId);
    }

    private static long query(String sql, String keyId) throws SQLException {
        try (Connection connection = STORES.database().connect();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, keyId);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }
}
