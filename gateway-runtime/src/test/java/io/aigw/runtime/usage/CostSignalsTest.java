package io.aigw.runtime.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.TestGateway;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Where a request's cost shows besides the usage report: the {@code X-Gateway-Cost} header, only
 * when an operator turns it on and never inside the upstream's body; {@code gateway_cost_usd_total};
 * and the usage record of a failed attempt that its upstream billed. gpt-5 is priced here at USD 2
 * a million input tokens and 8 a million output tokens.
 */
public final class CostSignalsTest {
    /** Spacing, member order and escapes as an upstream may write them: the caller must get these bytes. */
    private static final String ANSWER = "{ \"id\": \"c1\",\n  \"object\": \"chat.completion\", \"choices\": [{\"index\":0,"
            + "\"message\":{\"role\":\"assistant\",\"content\":\"caf\\u00e9 \\\"ok\\\"\"}}],\n"
            + "  \"usage\": {\"prompt_tokens\": 9, \"completion_tokens\": 2, \"total_tokens\": 11} }";
    /** 9 input tokens at 2 000 nano-dollars and 2 output tokens at 8 000. */
    private static final String ANSWER_COST = "0.000034000";
    private static final String CHAT = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer()
            .config("providers.openai.models.0.id", "gpt-5")
            .config("providers.openai.models.0.pricing.input", "2")
            .config("providers.openai.models.0.pricing.output", "8");

    @Test
    void byDefaultNoCostHeaderIsSentAndTheBodyIsTheUpstreamsBytes() {
        front.upstream().enqueue(json(200, ANSWER));

        HttpResponse<String> answer = front.gateway().chat(CHAT);

        assertEquals(200, answer.statusCode());
        assertEquals(Optional.empty(), answer.headers().firstValue("X-Gateway-Cost"));
        assertEquals(ANSWER, answer.body());
    }

    @Test
    void turnedOnThePlainAnswerStatesItsCostInTheHeaderAndTheBodyIsStillTheUpstreamsBytes() {
        TestGateway gateway = front.restart(Map.of("gateway.cost-header", "true"));
        front.upstream().enqueue(json(200, ANSWER));
        front.upstream().enqueue(json(200, "{\"object\":\"chat.completion\",\"choices\":[]}"));

        HttpResponse<String> priced = gateway.chat(CHAT);
        HttpResponse<String> withoutUsage = gateway.chat(CHAT);

        assertEquals(200, priced.statusCode());
        assertEquals(Optional.of(ANSWER_COST), priced.headers().firstValue("X-Gateway-Cost"));
        assertEquals(ANSWER, priced.body());
        assertEquals(Optional.of("unknown"), withoutUsage.headers().firstValue("X-Gateway-Cost"),
                "an answer without usage has an unknown cost, never 0");
        assertEquals("{\"object\":\"chat.completion\",\"choices\":[]}", withoutUsage.body());
    }

    @Test
    void pricedRequestsAddTheirCostToTheCounterOfTheirProviderAndModel() throws Exception {
        double before = costCounted("openai", "openai/gpt-5");
        front.upstream().enqueue(json(200, ANSWER));
        front.upstream().enqueue(json(200, ANSWER));

        assertEquals(200, front.gateway().chat(CHAT).statusCode());
        assertEquals(200, front.gateway().chat(CHAT).statusCode());

        // The counter is a double (a dashboard's rate); the exact sums are the usage report's.
        double expected = 2 * Double.parseDouble(ANSWER_COST);
        double added = awaitCostCounted("openai", "openai/gpt-5", before, expected);
        assertEquals(expected, added, 1e-12);
    }

    @Test
    void aFailedAttemptThatReportedUsageIsRecordedAsOneBesideTheRequestThatAnswered() throws Exception {
        front.replace(TestGateway.start(Map.of("providers.openai.base-url", front.upstream().url("/v1").toString(),
                        "providers.gemini.base-url", front.upstream().url("/v1").toString(),
                        "providers.openai.models.0.id", "gpt-5",
                        "providers.openai.models.0.pricing.input", "2",
                        "providers.openai.models.0.pricing.output", "8",
                        "gateway.access-log", "off"),
                Map.of("OPENAI_API_KEY", "sk-a", "GEMINI_API_KEY", "sk-b")));
        front.upstream().enqueue(json(503, "{\"error\":{\"message\":\"busy\"},\"usage\":{\"prompt_tokens\":30,"
                + "\"completion_tokens\":1,\"total_tokens\":31}}"));
        front.upstream().enqueue(json(200, "{\"object\":\"chat.completion\",\"choices\":[],\"usage\":{"
                + "\"prompt_tokens\":40,\"completion_tokens\":10,\"total_tokens\":50}}"));

        HttpResponse<String> answer = front.gateway().chat("{\"model\":\"gateway/auto\",\"messages\":[]}");

        assertEquals(200, answer.statusCode(), answer.body());
        // openai's 30 input tokens at 2 000 nano-dollars and 1 output token at 8 000; gemini's at its shipped price.
        assertEquals(List.of(
                "openai gpt-5 503 30 1 31 fallbacks=0 failed_attempt=true priced 68000",
                "gemini gemini-flash-latest 200 40 10 50 fallbacks=1 failed_attempt=false priced 37000"),
                recordsWhenWritten(2));
    }

    private List<String> recordsWhenWritten(int count) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<String> records = records();
        while (records.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(50);
            records = records();
        }
        return records;
    }

    private List<String> records() throws SQLException {
        try (Connection connection = DriverManager.getConnection(front.gateway().databaseUrl());
             ResultSet rows = connection.createStatement().executeQuery("SELECT provider, upstream_model, status,"
                     + " prompt_tokens, completion_tokens, total_tokens, fallbacks, failed_attempt, cost_basis,"
                     + " cost_nanos FROM usage_records ORDER BY failed_attempt DESC, recorded_at")) {
            List<String> records = new ArrayList<>();
            while (rows.next()) {
                records.add(rows.getString(1) + " " + rows.getString(2) + " " + rows.getInt(3) + " " + rows.getLong(4)
                        + " " + rows.getLong(5) + " " + rows.getLong(6) + " fallbacks=" + rows.getInt(7)
                        + " failed_attempt=" + rows.getBoolean(8) + " " + (rows.getInt(9) == 2 ? "priced"
                        : "basis " + rows.getInt(9)) + " " + rows.getLong(10));
            }
            return records;
        }
    }

    /** What {@code gateway_cost_usd_total} of this provider and model has counted, once it has grown by {@code expected}. */
    private double awaitCostCounted(String provider, String model, double before, double expected)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        double added = costCounted(provider, model) - before;
        while (added < expected - 1e-12 && System.nanoTime() < deadline) {
            Thread.sleep(50);
            added = costCounted(provider, model) - before;
        }
        return added;
    }

    /** {@code gateway_cost_usd_total{provider,model}} as /observe/metrics shows it; 0 before it exists. */
    private double costCounted(String provider, String model) {
        HttpResponse<String> metrics = front.gateway().send(HttpRequest.newBuilder(
                front.gateway().uri("/observe/metrics")).build());
        assertEquals(200, metrics.statusCode());
        Matcher lines = Pattern.compile("(?m)^gateway_cost_usd_total\\{([^}]*)} (\\S+)$").matcher(metrics.body());
        while (lines.find()) {
            String labels = lines.group(1);
            if (labels.contains("provider=\"" + provider + "\"") && labels.contains("model=\"" + model + "\"")) {
                return Double.parseDouble(lines.group(2));
            }
        }
        return 0;
    }

    private static MockResponse json(int status, String body) {
        return new MockResponse.Builder().code(status).addHeader("Content-Type", "application/json").body(body).build();
    }
}
