package io.aigw.runtime.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.SimpleFormatter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Health, metrics, request ids and the access log, as an operator and a scraper see them. */
public final class ObservabilityTest {
    private static final String UPSTREAM_KEY = "sk-proj-Xy7Qw3Rt9Uv1Ab2Cd4Ef6Gh8Ij0Kl2Mn4Op6Qr8St0Uv2Wx4Yz6";
    private static final String PROMPT = "my confidential prompt about project nightingale";
    private static final String COMPLETION = "the confidential completion about project nightingale";

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().alsoFor("gemini").withAccessLog()
            .environment("OPENAI_API_KEY", UPSTREAM_KEY)
            .environment("GEMINI_API_KEY", "AIzaSyD-real-looking-gemini-key-123456");

    @Test
    void healthAndReadinessNeedNoKeyAndReportTheStore() {
        HttpResponse<String> health = front.gateway().send(HttpRequest.newBuilder(front.gateway().uri("/observe/health")).build());
        assertEquals(200, health.statusCode());
        JsonObject check = Json.createReader(new StringReader(health.body())).readObject()
                .getJsonArray("checks").getJsonObject(0);
        assertEquals("UP", check.getString("status"));
        assertEquals("up", check.getJsonObject("data").getString("store"));
        assertEquals(front.gateway().gateway().routing().byPriority().size(), check.getJsonObject("data").getInt("providers"));
        assertEquals(200, status("/observe/health/live"));
        assertEquals(200, status("/observe/health/ready"));

        front.gateway().gateway().store().close();
        assertEquals(503, status("/observe/health/ready"));
        assertEquals(200, status("/observe/health/live"));
    }

    @Test
    void theCallersRequestIdIsReturnedAndSentUpstream() throws Exception {
        front.upstream().enqueue(new MockResponse.Builder().body("{}").build());

        HttpResponse<String> response = front.gateway().send(chat("openai/gpt-5").header("X-Request-Id", "trace-42.a_b:c")
                .build());

        assertEquals("trace-42.a_b:c", response.headers().firstValue("X-Request-Id").orElseThrow());
        assertEquals("trace-42.a_b:c", front.upstream().takeRequest(5, TimeUnit.SECONDS).getHeaders().get("X-Request-Id"));
    }

    @Test
    void aMissingOrUnsafeRequestIdIsReplacedByANewOne() throws Exception {
        front.upstream().enqueue(new MockResponse.Builder().body("{}").build());
        front.upstream().enqueue(new MockResponse.Builder().body("{}").build());

        String made = front.gateway().send(chat("openai/gpt-5").build()).headers().firstValue("X-Request-Id").orElseThrow();
        String replaced = front.gateway().send(chat("openai/gpt-5").header("X-Request-Id", "a".repeat(129)).build())
                .headers().firstValue("X-Request-Id").orElseThrow();

        assertTrue(made.matches("req_[0-9a-f]{24}"), made);
        assertTrue(replaced.matches("req_[0-9a-f]{24}"), replaced);
        RecordedRequest first = front.upstream().takeRequest(5, TimeUnit.SECONDS);
        assertEquals(made, first.getHeaders().get("X-Request-Id"));
    }

    private static final String CHAT_TOKENS_OUT =
            "direction=\"out\",endpoint=\"chat_completions\",model=\"openai/gpt-5\"";

    @Test
    void metricsCountRequestsTokensFallbacksAndCooldownsWithBoundedLabels() {
        double okBefore = metric("gateway_requests_total",
                "endpoint=\"chat_completions\",model=\"openai/gpt-5\",provider=\"openai\"", "status=\"200\"");
        double otherBefore = metric("gateway_requests_total", "model=\"other\",provider=\"none\"", "status=\"400\"");
        double tokensBefore = metric("gateway_tokens_total", CHAT_TOKENS_OUT, "openai");
        double fallbacksBefore = metric("gateway_fallbacks_total", "provider=\"openai\"", "");
        double cooldownsBefore = metric("gateway_key_cooldowns_total", "provider=\"openai\"", "");
        double overheadCountBefore = metric("gateway_overhead_seconds_count", "", "");
        front.upstream().enqueue(new MockResponse.Builder().body("{\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":4,"
                + "\"total_tokens\":7}}").build());
        front.upstream().enqueue(new MockResponse.Builder().code(401).body("{}").build());
        front.upstream().enqueue(new MockResponse.Builder().body("{}").build());

        front.gateway().send(chat("openai/gpt-5").build());
        front.gateway().send(chat("some-vendor/model-" + System.nanoTime()).build());
        front.gateway().send(chat("gateway/auto").build());

        String metrics = scrape();
        assertEquals(okBefore + 1, metric(metrics, "gateway_requests_total",
                "endpoint=\"chat_completions\",model=\"openai/gpt-5\",provider=\"openai\"",
                "status=\"200\""), metrics);
        assertEquals(otherBefore + 1, metric(metrics, "gateway_requests_total", "model=\"other\",provider=\"none\"",
                "status=\"400\""));
        assertEquals(tokensBefore + 4, metric(metrics, "gateway_tokens_total", CHAT_TOKENS_OUT, "openai"));
        assertEquals(fallbacksBefore + 1, metric(metrics, "gateway_fallbacks_total", "provider=\"openai\"", ""));
        assertEquals(cooldownsBefore + 1, metric(metrics, "gateway_key_cooldowns_total", "provider=\"openai\"", ""));
        assertFalse(metrics.contains("some-vendor"), "unknown models must not become label values");
        assertTrue(metrics.contains("gateway_overhead_seconds_bucket"));
        assertEquals(overheadCountBefore + 3, metric(metrics, "gateway_overhead_seconds_count", "", ""));
        assertFalse(metrics.lines().anyMatch(line -> line.startsWith("gateway_") && line.contains("quantile=")),
                () -> metrics.lines().filter(line -> line.contains("quantile=")).toList().toString());
        assertTrue(metrics.contains("gateway_upstream_latency_seconds_bucket"));
        assertTrue(metrics.contains("gateway_requests_in_flight"));
        assertTrue(metrics.contains("gateway_streams_in_flight"));
        assertFalse(metrics.contains(TestGateway.KEY) || metrics.contains("master"));
    }

    @Test
    void theAccessLogHasOneLinePerRequestAndNoKeyPromptOrCompletion() throws Exception {
        CapturedLogs logs = CapturedLogs.start();
        try {
            front.upstream().enqueue(new MockResponse.Builder().body("{\"choices\":[{\"message\":{\"content\":\"" + COMPLETION
                    + "\"}}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":4,\"total_tokens\":7}}").build());
            front.upstream().enqueue(new MockResponse.Builder().code(401).body("{\"error\":{\"message\":\"Incorrect API key"
                    + " provided: " + UPSTREAM_KEY + "\"}}").build());
            front.gateway().send(chat("openai/gpt-5").header("X-Request-Id", "log-test-1").build());
            front.gateway().send(chat("openai/gpt-5").build());
            front.gateway().send(HttpRequest.newBuilder(front.gateway().uri("/api/v1/models"))
                    .header("Authorization", "Bearer sk-gw-wrong-but-real-looking-key-000000").build());
        } finally {
            front.gateway().close();
            logs.stop();
        }

        List<String> lines = Files.readAllLines(front.accessLog());
        assertEquals(3, lines.size(), String.join("\n", lines));
        JsonObject first = Json.createReader(new StringReader(lines.get(0))).readObject();
        assertEquals("log-test-1", first.getString("request_id"));
        assertEquals("/api/v1/chat/completions", first.getString("path"));
        assertEquals(200, first.getInt("status"));
        assertEquals("master", first.getString("key_id"));
        assertEquals("openai/gpt-5", first.getString("model"));
        assertEquals("openai", first.getString("provider"));
        assertEquals(7, first.getInt("total_tokens"));
        assertEquals(0, first.getInt("fallbacks"));
        assertTrue(first.getJsonNumber("latency_ms").doubleValue() > 0);
        String everything = String.join("\n", lines) + "\n" + logs.text();
        for (String secret : List.of(UPSTREAM_KEY, TestGateway.KEY, "AIzaSyD-real-looking-gemini-key-123456",
                "sk-gw-wrong-but-real-looking-key-000000", PROMPT, COMPLETION, "nightingale")) {
            assertFalse(everything.contains(secret), "the logs contain '" + secret + "':\n" + everything);
        }
    }

    @Test
    void observeEndpointsCanMoveToTheirOwnPort() {
        front.replace(TestGateway.start(Map.of("gateway.observe.port", "0"), Map.of()));
        int observePort = front.gateway().gateway().observePort().orElseThrow();

        assertEquals(404, status("/observe/health"));
        HttpResponse<String> health = front.gateway().send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + observePort + "/observe/health")).build());
        assertEquals(200, health.statusCode());
    }

    private HttpRequest.Builder chat(String model) {
        return front.gateway().request("/api/v1/chat/completions").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model + "\",\"messages\":[{\"role\":"
                        + "\"user\",\"content\":\"" + PROMPT + "\"}]}"));
    }

    private int status(String path) {
        return front.gateway().send(HttpRequest.newBuilder(front.gateway().uri(path)).build()).statusCode();
    }

    private String scrape() {
        HttpResponse<String> response = front.gateway().send(HttpRequest.newBuilder(front.gateway().uri("/observe/metrics")).build());
        assertEquals(200, response.statusCode());
        return response.body();
    }

    private double metric(String name, String labels, String alsoContains) {
        return metric(scrape(), name, labels, alsoContains);
    }

    /** The value of the first sample of {@code name} whose labels contain both texts; 0 when none. */
    private static double metric(String metrics, String name, String labels, String alsoContains) {
        Matcher sample = Pattern.compile("^" + name + "\\{([^}]*)} (\\S+)$", Pattern.MULTILINE).matcher(metrics);
        while (sample.find()) {
            if (sample.group(1).contains(labels) && sample.group(1).contains(alsoContains)) {
                return Double.parseDouble(sample.group(2));
            }
        }
        return 0;
    }

    /** Everything the gateway logs through java.util.logging while a test runs. */
    private static final class CapturedLogs extends Handler {
        private final ByteArrayOutputStream text = new ByteArrayOutputStream();
        private final SimpleFormatter formatter = new SimpleFormatter();

        static CapturedLogs start() {
            CapturedLogs logs = new CapturedLogs();
            Logger.getLogger("").addHandler(logs);
            return logs;
        }

        void stop() {
            Logger.getLogger("").removeHandler(this);
        }

        String text() {
            return text.toString(StandardCharsets.UTF_8);
        }

        @Override
        public synchronized void publish(LogRecord record) {
            text.writeBytes(formatter.format(record).getBytes(StandardCharsets.UTF_8));
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    }
}
