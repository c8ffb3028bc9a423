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
                "master xai/grok-4 null null 502 -1 -1 -1 fallbacks=0"), recordsWhenWritten(2));
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
    void theReportSumsRequestsAndTokensByKeyAndByModelMostTokensFirst() throws Exception {
        long from = System.currentTimeMillis() / 1000;
        JsonObject app = keys().createKey("app");
        chat(TestGateway.KEY, "openai/gpt-5", 9, 2);
        chat(app.getString("key"), "openai/gpt-4o", 1, 1);
        chat(app.getString("key"), "openai/gpt-5", 100, 50);
        long to = System.currentTimeMillis() / 1000 + 60;

        HttpResponse<String> report = reportOnceWritten("?from=" + from + "&to=" + to, 3);

        assertEquals(200, report.statusCode(), report.body());
        assertEquals("application/json", report.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("{\"from\":" + from + ",\"to\":" + to + ","
                + "\"by_key\":["
                + "{\"key_id\":\"" + app.getString("id") + "\",\"requests\":2,\"prompt_tokens\":101,"
                + "\"completion_tokens\":51,\"total_tokens\":152},"
                + "{\"key_id\":\"master\",\"requests\":1,\"prompt_tokens\":9,\"completion_tokens\":2,\"total_tokens\":11}],"
                + "\"by_model\":["
                + "{\"model\":\"openai/gpt-5\",\"requests\":2,\"prompt_tokens\":109,\"completion_tokens\":52,"
                + "\"total_tokens\":161},"
                + "{\"model\":\"openai/gpt-4o\",\"requests\":1,\"prompt_tokens\":1,\"completion_tokens\":1,"
                + "\"total_tokens\":2}]}", report.body());
    }

    @Test
    void aPeriodWithoutRecordsHasEmptyListsAndIsoInstantsAreReadAsUnixSecondsAre() throws Exception {
        HttpResponse<String> report = report("?from=2026-01-01T00:00:00Z&to=2026-01-02T00:00:00Z");

        assertEquals(200, report.statusCode(), report.body());
        assertEquals("{\"from\":1767225600,\"to\":1767312000,\"by_key\":[],\"by_model\":[]}", report.body());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '"', textBlock = """
            ?from=yesterday                | from | 'from' must be unix seconds or an ISO-8601 instant such as 2026-01-31T00:00:00Z.
            ?to=-5                         | to   | 'to' must be unix seconds or an ISO-8601 instant such as 2026-01-31T00:00:00Z.
            ?from=1767312000&to=1767225600 | from | 'from' must be before 'to'.
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
        while (KeysApi.json(report.body()).getJsonArray("by_model").stream()
                .mapToInt(row -> row.asJsonObject().getInt("requests")).sum() < requests
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
