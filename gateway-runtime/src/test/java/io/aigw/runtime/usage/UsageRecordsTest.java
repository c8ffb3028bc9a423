package io.aigw.runtime.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Every chat completion leaves one usage record, streams included, without changing what the caller
 * sees; {@code GET /admin/v1/usage} sums them by key and by requested model, most tokens first.
 */
public final class UsageRecordsTest {
    private static final String CHUNK = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
            + "\"delta\":{\"content\":\"Hi\"},\"finish_reason\":null}],\"usage\":null}\n\n";
    private static final String LAST = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
            + "\"delta\":{},\"finish_reason\":\"stop\"}],\"usage\":null}\n\n";
    private static final String USAGE = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[],"
            + "\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3,\"total_tokens\":15}}\n\n";
    private static final String DONE = "data: [DONE]\n\n";

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer();

    @Test
    void aPlainCompletionIsRecordedWithItsTokens() throws Exception {
        front.upstream().enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json")
                .body("{\"object\":\"chat.completion\",\"model\":\"gpt-5-2025\",\"choices\":[],"
                        + "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":2,\"total_tokens\":11}}").build());

        assertEquals(200, front.gateway().chat("{\"model\":\"openai/gpt-5\",\"messages\":[]}").statusCode());

        List<String> records = recordsWhenWritten(1);
        assertEquals(List.of("master openai/gpt-5 openai gpt-5 200 9 2 11 fallbacks=0"), records);
    }

    @Test
    void aStreamWithoutIncludeUsageIsCountedAndTheCallerSeesNoExtraChunk() throws Exception {
        front.upstream().enqueue(stream(CHUNK + LAST + USAGE + DONE));

        HttpResponse<String> response = front.gateway().chat(
                "{\"model\":\"openai/gpt-5\",\"stream\":true,\"messages\":[]}");

        assertEquals(CHUNK + LAST + DONE, response.body());
        assertEquals("{\"stream_options\":{\"include_usage\":true},\"model\":\"gpt-5\",\"stream\":true,\"messages\":[]}",
                front.upstream().takeRequest(5, TimeUnit.SECONDS).getBody().utf8());
        assertEquals(List.of("master openai/gpt-5 openai gpt-5 200 12 3 15 fallbacks=0"), recordsWhenWritten(1));
    }

    @Test
    void aStreamWhoseCallerAskedForUsageIsRelayedAsSent() throws Exception {
        front.upstream().enqueue(stream(CHUNK + LAST + USAGE + DONE));
        String request = "{\"model\":\"openai/gpt-5\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                + "\"messages\":[]}";

        HttpResponse<String> response = front.gateway().chat(request);

        assertEquals(CHUNK + LAST + USAGE + DONE, response.body());
        assertEquals(request.replace("openai/gpt-5", "gpt-5"), front.upstream().takeRequest(5, TimeUnit.SECONDS).getBody().utf8());
        assertEquals(List.of("master openai/gpt-5 openai gpt-5 200 12 3 15 fallbacks=0"), recordsWhenWritten(1));
    }

    @Test
    void streamOptionsThatTurnUsageOffAreTurnedOnUpstreamAndTheOtherOptionsKept() throws Exception {
        front.upstream().enqueue(stream(CHUNK + USAGE + DONE));

        HttpResponse<String> response = front.gateway().chat("{\"model\":\"openai/gpt-5\",\"stream\":true,"
                + "\"stream_options\":{\"include_usage\":false,\"include_obfuscation\":false},\"messages\":[]}");

        assertEquals(CHUNK + DONE, response.body());
        assertEquals("{\"model\":\"gpt-5\",\"stream\":true,\"stream_options\":{\"include_usage\":true,"
                + "\"include_obfuscation\":false},\"messages\":[]}", front.upstream().takeRequest(5, TimeUnit.SECONDS).getBody().utf8());
        assertEquals(List.of("master openai/gpt-5 openai gpt-5 200 12 3 15 fallbacks=0"), recordsWhenWritten(1));
    }

    @Test
    void failuresAndFallbacksAreRecordedToo() throws Exception {
        front.replace(TestGateway.start(Map.of("providers.openai.base-url", front.upstream().url("/v1").toString(),
                        "providers.gemini.base-url", front.upstream().url("/v1").toString()),
                Map.of("OPENAI_API_KEY", "sk-a", "GEMINI_API_KEY", "sk-b")));
        front.upstream().enqueue(new MockResponse.Builder().code(503).body("busy").build());
        front.upstream().enqueue(new MockResponse.Builder().body("{\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1,"
                + "\"total_tokens\":2}}").build());

        front.gateway().chat("{\"model\":\"gateway/auto\",\"messages\":[]}");
        front.gateway().chat("{\"model\":\"xai/grok-4\",\"messages\":[]}");

        assertEquals(List.of(
                "master gateway/auto gemini gemini-flash-latest 200 1 1 2 fallbacks=1",
                "master xai/grok-4 null null 400 0 0 0 fallbacks=0"), recordsWhenWritten(2));
    }

    private static MockResponse stream(String events) {
        return new MockResponse.Builder().addHeader("Content-Type", "text/event-stream").body(events).build();
    }

    /** Polls the gateway's database until {@code count} records are there (they are written off the request thread). */
    private List<String> recordsWhenWritten(int count) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        List<String> records = List.of();
        while (System.nanoTime() < deadline) {
            records = records();
            if (records.size() >= count) {
                return records;
            }
            Thread.sleep(50);
        }
        return records;
    }

    private List<String> records() throws SQLException {
        try (Connection connection = DriverManager.getConnection(front.gateway().databaseUrl());
             ResultSet rows = connection.createStatement().executeQuery("SELECT key_id, requested_model, provider,"
                     + " upstream_model, status, prompt_tokens, completion_tokens, total_tokens, fallbacks,"
                     + " latency_micros, first_byte_micros FROM usage_records ORDER BY recorded_at")) {
            List<String> records = new ArrayList<>();
            while (rows.next()) {
                if (rows.getLong(10) <= 0) {
                    throw new AssertionError("latency must be recorded");
                }
                records.add(rows.getString(1) + " " + rows.getString(2) + " " + rows.getString(3) + " "
                        + rows.getString(4) + " " + rows.getInt(5) + " " + rows.getLong(6) + " " + rows.getLong(7)
                        + " " + rows.getLong(8) + " fallbacks=" + rows.getInt(9));
            }
            return records;
        }
    }

    @Test
    void theReportSumsRequestsTokensAndSpendByKeyWithItsNameAndByModel() throws Exception {
        JsonObject app = keys().createKey("app");
        chat(TestGateway.KEY, "openai/gpt-5", 9, 2);
        chat(app.getString("key"), "openai/gpt-4o", 1, 1);
        chat(app.getString("key"), "openai/gpt-5", 100, 50);

        JsonObject byKey = KeysApi.json(reportOnceWritten("?group_by=key", 3).body());
        JsonObject first = byKey.getJsonArray("data").getJsonObject(0);
        assertEquals(app.getString("id") + " app 2 101 51 152", first.getString("key_id") + " "
                + first.getString("key_name") + " " + first.getInt("requests") + " " + first.getInt("prompt_tokens")
                + " " + first.getInt("completion_tokens") + " " + first.getInt("total_tokens"));
        JsonObject byModel = KeysApi.json(report("?group_by=model").body());
        assertEquals(List.of("openai gpt-5 2 161", "openai gpt-4o 1 2"), byModel.getJsonArray("data").stream()
                .map(row -> row.asJsonObject().getString("provider") + " " + row.asJsonObject().getString("model")
                        + " " + row.asJsonObject().getInt("requests") + " " + row.asJsonObject().getInt("total_tokens"))
                .toList());
        assertEquals(byKey.getJsonObject("totals").getString("cost_usd"),
                byModel.getJsonObject("totals").getString("cost_usd"));
    }

    @Test
    void aStreamThatSentNoUsageIsChargedAnEstimateAndTheCsvReportShowsItsSpend() throws Exception {
        front.upstream().enqueue(stream(CHUNK + LAST + DONE));
        String request = "{\"model\":\"openai/gpt-5\",\"stream\":true,\"messages\":[{\"role\":\"user\","
                + "\"content\":\"Twelve bytes\"}]}";

        assertEquals(CHUNK + LAST + DONE, front.gateway().chat(request).body());

        reportOnceWritten("", 1);
        try (Connection connection = DriverManager.getConnection(front.gateway().databaseUrl());
             ResultSet rows = connection.createStatement().executeQuery("SELECT prompt_tokens, completion_tokens,"
                     + " cost_basis, cost_nanos, price_version FROM usage_records")) {
            rows.next();
            // 12 bytes of prompt text are 3 tokens, the 2 bytes relayed ("Hi") 1, at gpt-5's price.
            assertEquals("3 1 3 true", rows.getLong(1) + " " + rows.getLong(2) + " " + rows.getInt(3) + " "
                    + (rows.getLong(4) > 0 && rows.getString(5).length() == 12));
        }
        HttpResponse<String> csv = keys().send(keys().request("/admin/v1/usage?group_by=model", TestGateway.KEY)
                .header("Accept", "text/csv").GET());
        assertEquals("text/csv; charset=utf-8", csv.headers().firstValue("Content-Type").orElseThrow());
        List<String> lines = csv.body().lines().toList();
        assertEquals("\"provider\",\"model\",\"requests\",\"prompt_tokens\",\"completion_tokens\",\"total_tokens\","
                + "\"cost_usd\",\"unknown_cost\",\"estimated_cost\"", lines.get(0));
        // 3 input tokens at USD 1.25 a million and 1 output token at USD 10: 13.75 micro-dollars.
        assertEquals(List.of("\"openai\",\"gpt-5\",1,3,1,4,0.000013750,0,1"), lines.subList(1, lines.size()));
    }

    @Test
    void aPeriodWithoutRecordsHasNoGroupsAndAnUnknownCost() throws Exception {
        HttpResponse<String> report = report("?from=2026-01-01&to=2026-01-02T10:00:00Z");

        assertEquals(200, report.statusCode(), report.body());
        assertEquals("{\"from\":\"2026-01-01\",\"to\":\"2026-01-02\",\"group_by\":[\"key\"],\"key\":null,"
                + "\"totals\":{\"key_id\":null,\"key_name\":null,\"provider\":null,\"model\":null,\"upstream_key\":null,"
                + "\"endpoint\":null,\"day\":null,"
                + "\"requests\":0,\"prompt_tokens\":0,\"completion_tokens\":0,\"total_tokens\":0,\"cost_usd\":null,"
                + "\"unknown_cost\":0,\"estimated_cost\":0},\"data\":[]}", report.body());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            ?from=yesterday                | from | 'from' must be a day such as 2026-01-31, or an instant (ISO-8601 or unix seconds) standing for its day in UTC.
            ?from=1767312000&to=1767225600 | from | 'from' must not be after 'to'.
            """)
    void aPeriodThatCannotBeReadIsRefusedWith400NamingTheParameter(String query, String param, String message)
            throws Exception {
        HttpResponse<String> report = report(query);

        assertEquals(400, report.statusCode(), report.body());
        assertEquals("{\"error\":{\"message\":\"" + message + "\",\"type\":\"invalid_request_error\",\"param\":\""
                + param + "\",\"code\":null}}", report.body());
    }

    private void chat(String key, String model, int promptTokens, int completionTokens) {
        front.upstream().enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json")
                .body("{\"object\":\"chat.completion\",\"choices\":[],\"usage\":{\"prompt_tokens\":" + promptTokens
                        + ",\"completion_tokens\":" + completionTokens + ",\"total_tokens\":"
                        + (promptTokens + completionTokens) + "}}").build());
        HttpResponse<String> answer = keys().send(keys().request("/api/v1/chat/completions", key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model + "\",\"messages\":[]}")));
        assertEquals(200, answer.statusCode(), answer.body());
    }

    private HttpResponse<String> report(String query) {
        return keys().send(keys().request("/admin/v1/usage" + query, TestGateway.KEY).GET());
    }

    /** Asks until the report counts {@code requests} requests: records are written off the request thread. */
    private HttpResponse<String> reportOnceWritten(String query, int requests) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        HttpResponse<String> report = report(query);
        while (KeysApi.json(report.body()).getJsonObject("totals").getInt("requests") < requests
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
            report = report(query);
        }
        return report;
    }

    private KeysApi keys() {
        return KeysApi.of(front.gateway());
    }
}
