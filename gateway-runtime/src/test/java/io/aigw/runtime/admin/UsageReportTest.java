package io.aigw.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code GET /admin/v1/usage}: the sums of the usage records the gateway wrote for real chat
 * completions, by key and by requested model, most tokens first, over the period asked for.
 */
public final class UsageReportTest {
    private MockWebServer upstream;
    private TestGateway gateway;
    private KeysApi api;

    @BeforeEach
    void start() throws IOException {
        upstream = new MockWebServer();
        upstream.start(InetAddress.getLoopbackAddress(), 0);
        gateway = TestGateway.start(Map.of("providers.openai.base-url", upstream.url("/v1").toString(),
                "gateway.access-log", "off"), Map.of("OPENAI_API_KEY", "sk-upstream-openai"));
        api = KeysApi.of(gateway);
    }

    @AfterEach
    void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void theReportSumsRequestsAndTokensByKeyAndByModelMostTokensFirst() throws Exception {
        long from = System.currentTimeMillis() / 1000;
        JsonObject app = api.createKey("app");
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
        upstream.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json")
                .body("{\"object\":\"chat.completion\",\"choices\":[],\"usage\":{\"prompt_tokens\":" + promptTokens
                        + ",\"completion_tokens\":" + completionTokens + ",\"total_tokens\":"
                        + (promptTokens + completionTokens) + "}}").build());
        HttpResponse<String> answer = api.send(api.request("/api/v1/chat/completions", key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model + "\",\"messages\":[]}")));
        assertEquals(200, answer.statusCode(), answer.body());
    }

    private HttpResponse<String> report(String query) {
        return api.send(api.request("/admin/v1/usage" + query, TestGateway.KEY).GET());
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
}
