package io.aigw.runtime.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aigw.runtime.testing.CallRecords;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Requests the gateway refuses itself (a key's policy or limits, a provider without a key) leave the
 * trace an answered one does: an access log line with their model, a usage record with their status,
 * no tokens and a cost of zero that no price table claims, a count in {@code gateway_requests_total},
 * and a row of the usage report under their model. A body refused before its exchange is logged
 * with the endpoint it was sent to.
 */
public final class RefusedRequestsRecordedTest {
    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().withAccessLog()
            .environment("OPENAI_API_KEY", "sk-upstream-openai").config("gateway.max-body-size", "4000");

    @Test
    void eachRefusalIsLoggedCountedRecordedAndReportedWithItsModel() throws Exception {
        KeysApi keys = KeysApi.of(front.gateway());
        JsonObject created = KeysApi.json(keys.create("{\"name\":\"narrow\",\"models\":[\"openai/*\",\"xai/*\"],"
                + "\"tpm\":1000}").body());
        String key = created.getString("key");
        String keyId = created.getString("id");
        Map<Integer, Double> before = CallRecords.requestsCounted(front.gateway());

        assertEquals(403, chat(key, "{\"model\":\"anthropic/claude-haiku-4-5\",\"messages\":[]}").statusCode());
        assertEquals(400, chat(key, "{\"model\":\"openai/gpt-5\",\"messages\":[],\"max_tokens\":5000}").statusCode());
        assertEquals(400, chat(key, "{\"model\":\"xai/grok-4\",\"messages\":[],\"max_tokens\":10}").statusCode());

        List<JsonObject> lines = CallRecords.accessLogLines(front.accessLog(), 3);
        assertEquals(List.of("403 anthropic/claude-haiku-4-5 none 0 0 none", "400 openai/gpt-5 none 0 0 none",
                "400 xai/grok-4 none 0 0 none"), lines.stream().map(line -> line.getInt("status") + " "
                + line.getString("model") + " " + line.getString("provider", "none") + " "
                + line.getJsonNumber("total_tokens") + " " + line.getJsonNumber("cost_usd").bigDecimalValue().stripTrailingZeros().toPlainString() + " "
                + line.getString("cost_basis")).toList());
        lines.forEach(line -> assertEquals(keyId, line.getString("key_id")));

        assertEquals(List.of("403 anthropic/claude-haiku-4-5 null 0 0 0 0 4", "400 openai/gpt-5 null 0 0 0 0 4",
                "400 xai/grok-4 null 0 0 0 0 4"), usageRecords(3), "no tokens, a cost of 0 on the basis none (4)");

        Map<Integer, Double> after = CallRecords.requestsCounted(front.gateway());
        assertEquals(1, CallRecords.countedSince(before, after, 403));
        assertEquals(2, CallRecords.countedSince(before, after, 400));

        HttpResponse<String> csv = keys.send(keys.request("/admin/v1/usage?group_by=model", TestGateway.KEY)
                .header("Accept", "text/csv").GET());
        assertEquals(List.of("\"provider\",\"model\",\"requests\",\"prompt_tokens\",\"completion_tokens\","
                        + "\"total_tokens\",\"cost_usd\",\"unknown_cost\",\"estimated_cost\"",
                ",\"anthropic/claude-haiku-4-5\",1,0,0,0,0.000000000,0,0", ",\"openai/gpt-5\",1,0,0,0,0.000000000,0,0",
                ",\"xai/grok-4\",1,0,0,0,0.000000000,0,0"),
                csv.body().lines().toList(), "no provider was tried: each row is named by the model asked for");
    }

    @Test
    void aBodyRefusedBeforeItsExchangeIsLoggedWithItsEndpointOnEverySurface() {
        List<String> refused = List.of(
                post("/api/v1/chat/completions", "{\"model\":"),
                post("/api/v1/responses", "{\"input\":\"Hi\"}"),
                post("/api/v1/embeddings", "not json"),
                post("/anthropic/v1/messages", "{\"model\":\"claude-sonnet-4-5\",\"messages\":[]}"),
                post("/anthropic/v1/messages/count_tokens", "[]"),
                post("/anthropic/v1/messages", "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":1,\"messages\":"
                        + "[{\"role\":\"user\",\"content\":\"" + "x".repeat(5000) + "\"}]}"));

        assertEquals(List.of("400 /api/v1/chat/completions", "400 /api/v1/responses", "400 /api/v1/embeddings",
                "400 /anthropic/v1/messages", "400 /anthropic/v1/messages/count_tokens", "413 /anthropic/v1/messages"),
                refused);
        assertEquals(List.of("400 chat_completions", "400 responses", "400 embeddings", "400 messages",
                        "400 count_tokens", "413 messages"),
                CallRecords.accessLogLines(front.accessLog(), "/a", 6).stream()
                        .map(line -> line.getInt("status") + " " + line.getString("endpoint", "no endpoint")).toList());
    }

    /** Posts {@code body} with the master key; says the answer's status and the path. */
    private String post(String path, String body) {
        HttpResponse<String> answer = front.gateway().send(front.gateway().request(path)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build());
        return answer.statusCode() + " " + path;
    }

    private HttpResponse<String> chat(String key, String body) {
        return KeysApi.of(front.gateway()).send(KeysApi.of(front.gateway()).request("/api/v1/chat/completions", key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** Each record's status, requested model, provider, tokens, cost and cost basis, once {@code count} are written. */
    private List<String> usageRecords(int count) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<String> records = new ArrayList<>();
        while (records.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(50);
            records.clear();
            try (Connection connection = DriverManager.getConnection(front.gateway().databaseUrl());
                 ResultSet rows = connection.createStatement().executeQuery("SELECT status, requested_model, provider,"
                         + " prompt_tokens, completion_tokens, total_tokens, cost_nanos, cost_basis FROM usage_records"
                         + " ORDER BY recorded_at")) {
                while (rows.next()) {
                    records.add(rows.getInt(1) + " " + rows.getString(2) + " " + rows.getString(3) + " "
                            + rows.getLong(4) + " " + rows.getLong(5) + " " + rows.getLong(6) + " " + rows.getLong(7)
                            + " " + rows.getInt(8));
                }
            }
        }
        return records;
    }
}
