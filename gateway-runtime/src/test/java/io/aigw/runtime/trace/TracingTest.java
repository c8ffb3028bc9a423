package io.aigw.runtime.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.AnthropicUpstream;
import io.aigw.runtime.testing.CallRecords;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.LocalRedis;
import io.aigw.runtime.testing.TestGateway;
import io.aigw.runtime.trace.OtlpReceiver.ReceivedSpan;
import io.opentelemetry.proto.trace.v1.Span.SpanKind;
import io.opentelemetry.proto.trace.v1.Status.StatusCode;
import jakarta.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Traces as a collector receives them over OTLP/HTTP: a server span per request in the caller's
 * trace, a GenAI client span per attempt, the trace's id in the answer, the access log and the
 * usage record; no content unless asked for.
 */
public final class TracingTest {
    private static final String CALLER_TRACE = "0af7651916cd43dd8448eb211c80319c";
    private static final String CALLER_SPAN = "b7ad6b7169203331";
    private static final String PROMPT = "a prompt about project nightingale";
    private static final String ANSWER = "{\"id\":\"chatcmpl-1\",\"model\":\"gpt-5-2025\",\"choices\":[{\"index\":0,"
            + "\"message\":{\"role\":\"assistant\",\"content\":\"hello\"},\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":7,\"total_tokens\":19,"
            + "\"prompt_tokens_details\":{\"cached_tokens\":4},\"completion_tokens_details\":{\"reasoning_tokens\":3}}}";

    private final OtlpReceiver collector = new OtlpReceiver();

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().alsoFor("gemini").withAccessLog()
            .environment("OPENAI_API_KEY", "sk-upstream-openai")
            .environment("GEMINI_API_KEY", "sk-upstream-gemini")
            .environment("OTEL_SDK_DISABLED", "false")
            .environment("OTEL_EXPORTER_OTLP_ENDPOINT", collector.endpoint())
            .environment("OTEL_SERVICE_NAME", "gateway-under-test")
            .config("gateway.tracing.batch.schedule-delay", "20ms");

    TracingTest() throws Exception {
    }

    @AfterEach
    void stopCollector() {
        collector.close();
    }

    @Test
    void aCallersTraceparentIsContinuedByAServerSpanAndOneAttemptSpan() throws Exception {
        front.upstream().enqueue(new MockResponse.Builder().body(ANSWER).build());

        HttpResponse<String> response = front.gateway().send(chat("openai/gpt-5", false)
                .header("traceparent", "00-" + CALLER_TRACE + "-" + CALLER_SPAN + "-01")
                .header("tracestate", "vendor=opaque")
                .build());

        assertEquals(200, response.statusCode());
        String traceparent = response.headers().firstValue("traceparent").orElseThrow();
        assertTrue(traceparent.matches("00-" + CALLER_TRACE + "-[0-9a-f]{16}-01"), traceparent);
        ReceivedSpan server = collector.await(span -> span.kind() == SpanKind.SPAN_KIND_SERVER);
        assertEquals("gateway-under-test", server.service());
        assertEquals("POST /api/v1/chat/completions", server.name());
        assertEquals(CALLER_TRACE, server.traceId());
        assertEquals(CALLER_SPAN, server.parentSpanId());
        assertEquals(traceparent.split("-")[2], server.spanId());
        assertEquals("master", server.attribute("aigw.key.id"));
        assertEquals("master", server.attribute("aigw.key.name"));
        assertEquals("answered", server.attribute("aigw.outcome"));
        assertEquals(200L, server.attribute("http.response.status_code"));
        assertEquals("priced", server.attribute("aigw.cost.basis"));
        assertTrue((Double) server.attribute("aigw.cost.usd") > 0, server.attributes().toString());
        assertEquals("openai/gpt-5", server.attribute("gen_ai.request.model"));

        ReceivedSpan attempt = collector.await(span -> span.kind() == SpanKind.SPAN_KIND_CLIENT);
        assertEquals("chat gpt-5", attempt.name());
        assertEquals(CALLER_TRACE, attempt.traceId());
        assertEquals(server.spanId(), attempt.parentSpanId());
        assertEquals(Map.ofEntries(
                Map.entry("gen_ai.operation.name", "chat"),
                Map.entry("gen_ai.provider.name", "openai"),
                Map.entry("gen_ai.request.model", "gpt-5"),
                Map.entry("gen_ai.response.model", "gpt-5-2025"),
                Map.entry("gen_ai.response.id", "chatcmpl-1"),
                Map.entry("gen_ai.response.finish_reasons", List.of("stop")),
                Map.entry("gen_ai.usage.input_tokens", 12L),
                Map.entry("gen_ai.usage.output_tokens", 7L),
                Map.entry("gen_ai.usage.cache_read.input_tokens", 4L),
                Map.entry("gen_ai.usage.reasoning.output_tokens", 3L),
                Map.entry("server.address", front.upstream().getHostName()),
                Map.entry("server.port", (long) front.upstream().getPort()),
                Map.entry("http.response.status_code", 200L),
                Map.entry("aigw.attempt.ending", "answered")), attempt.attributes());
        assertEquals(StatusCode.STATUS_CODE_UNSET, attempt.status());
        // When the upstream's headers came: Helidon's client tells nothing of its connection apart.
        assertEquals(1, attempt.events().size(), attempt.events().toString());
        OtlpReceiver.ReceivedEvent headers = attempt.events().get(0);
        assertEquals("aigw.upstream.headers", headers.name());
        double waited = (Double) headers.attributes().get("aigw.wait.duration");
        assertTrue(waited > 0 && waited < 10, headers.toString());
        assertTrue(headers.sinceStartNanos() > 0, headers.toString());

        // Neither the key nor any content is in a span; the providers are not told of the trace.
        String everything = collector.received(span -> true).toString();
        assertFalse(everything.contains("sk-gw-") || everything.contains("sk-upstream") || everything.contains(PROMPT),
                everything);
        RecordedRequest upstream = front.upstream().takeRequest(5, TimeUnit.SECONDS);
        assertNull(upstream.getHeaders().get("traceparent"));

        JsonObject line = CallRecords.accessLogLines(front.accessLog(), 1).get(0);
        assertEquals(CALLER_TRACE, line.getString("trace_id"));
        assertEquals(List.of(CALLER_TRACE), usageTraceIds(1));
    }

    @Test
    void aRequestWithoutTraceContextStartsATrace() throws Exception {
        front.upstream().enqueue(new MockResponse.Builder().body(ANSWER).build());

        HttpResponse<String> response = front.gateway().send(chat("openai/gpt-5", false).build());

        String traceparent = response.headers().firstValue("traceparent").orElseThrow();
        // Sampled, and (the flag's second bit) with a random trace id.
        assertTrue(traceparent.matches("00-[0-9a-f]{32}-[0-9a-f]{16}-03"), traceparent);
        String traceId = traceparent.split("-")[1];
        ReceivedSpan server = collector.await(span -> span.kind() == SpanKind.SPAN_KIND_SERVER);
        assertEquals(traceId, server.traceId());
        assertEquals("", server.parentSpanId());
        assertEquals(List.of(traceId), usageTraceIds(1));
    }

    @Test
    void aFallbackOfGatewayAutoMakesTwoSiblingAttemptSpansTheFirstWithItsError() throws Exception {
        front.upstream().enqueue(new MockResponse.Builder().code(503)
                .body("{\"error\":{\"message\":\"busy\",\"type\":\"x\",\"param\":null,\"code\":null}}").build());
        front.upstream().enqueue(new MockResponse.Builder().body(ANSWER).build());

        HttpResponse<String> response = front.gateway().send(chat("gateway/auto", false).build());

        assertEquals(200, response.statusCode());
        ReceivedSpan server = collector.await(span -> span.kind() == SpanKind.SPAN_KIND_SERVER);
        ReceivedSpan failed = collector.await(span -> "openai".equals(span.attribute("gen_ai.provider.name")));
        ReceivedSpan served = collector.await(span -> "gemini".equals(span.attribute("gen_ai.provider.name")));
        assertEquals(server.spanId(), failed.parentSpanId());
        assertEquals(server.spanId(), served.parentSpanId());
        assertEquals("chat gpt-5", failed.name());
        assertEquals("503", failed.attribute("error.type"));
        assertEquals(503L, failed.attribute("http.response.status_code"));
        assertEquals(StatusCode.STATUS_CODE_ERROR, failed.status());
        assertNull(served.attribute("error.type"));
        assertEquals(19L, (long) served.attribute("gen_ai.usage.input_tokens") + (long) served.attribute(
                "gen_ai.usage.output_tokens"));
        assertEquals(1L, server.attribute("aigw.fallbacks"));
        assertEquals("gemini", server.attribute("aigw.provider"));
        assertEquals("gateway/auto", server.attribute("gen_ai.request.model"));
    }

    @Test
    void aStreamsAttemptSpanCarriesTimeToFirstChunkUsageAndWhatItsChunksSaidOfTheResponse() throws Exception {
        String chunk = "data: {\"id\":\"chatcmpl-9\",\"object\":\"chat.completion.chunk\",\"model\":\"gpt-5-2025\","
                + "\"choices\":";
        front.upstream().enqueue(new MockResponse.Builder().addHeader("Content-Type", "text/event-stream")
                .body(chunk + "[{\"index\":0,\"delta\":{\"content\":\"hel\"},\"finish_reason\":null}]}\n\n"
                        + chunk + "[{\"index\":0,\"delta\":{\"content\":\"lo\"},\"finish_reason\":\"length\"}]}\n\n"
                        + chunk + "[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":7,"
                        + "\"total_tokens\":19}}\n\n"
                        + "data: [DONE]\n\n").build());

        HttpResponse<String> response = front.gateway().send(chat("openai/gpt-5", true).build());

        assertEquals(200, response.statusCode());
        assertTrue(response.body().contains("data: [DONE]"), response.body());
        ReceivedSpan attempt = collector.await(span -> span.kind() == SpanKind.SPAN_KIND_CLIENT);
        assertEquals(true, attempt.attribute("gen_ai.request.stream"));
        double firstChunk = (Double) attempt.attribute("gen_ai.response.time_to_first_chunk");
        assertTrue(firstChunk > 0 && firstChunk < 10, attempt.attributes().toString());
        assertEquals(12L, attempt.attribute("gen_ai.usage.input_tokens"));
        assertEquals(7L, attempt.attribute("gen_ai.usage.output_tokens"));
        assertEquals("gpt-5-2025", attempt.attribute("gen_ai.response.model"));
        assertEquals("chatcmpl-9", attempt.attribute("gen_ai.response.id"));
        assertEquals(List.of("length"), attempt.attribute("gen_ai.response.finish_reasons"));
    }

    @Test
    void anAnthropicMessagesAttemptSpanNamesTheMessagesModelIdAndStopReasonWholeOrStreamed() throws Exception {
        front.restart(Map.of("providers.anthropic.base-url", front.upstream().url("/v1").toString(),
                "providers.anthropic.api-key", "sk-upstream-anthropic"));
        front.upstream().enqueue(AnthropicUpstream.message(AnthropicUpstream.MESSAGE));
        front.upstream().enqueue(AnthropicUpstream.stream(AnthropicUpstream.STREAM));

        for (boolean stream : new boolean[] {false, true}) {
            HttpResponse<String> response = front.gateway().send(front.gateway().request("/anthropic/v1/messages")
                    .header("anthropic-version", "2023-06-01")
                    .header("content-type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":64,"
                            + "\"stream\":" + stream + ",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"))
                    .build());
            assertEquals(200, response.statusCode(), response.body());
        }

        ReceivedSpan whole = collector.await(span -> span.kind() == SpanKind.SPAN_KIND_CLIENT
                && span.attribute("gen_ai.request.stream") == null);
        assertEquals("chat claude-sonnet-4-5", whole.name());
        assertEquals("claude-sonnet-4-5-20250929", whole.attribute("gen_ai.response.model"));
        assertEquals("msg_01XFDUDYJgAACzvnptvVoYEL", whole.attribute("gen_ai.response.id"));
        assertEquals(List.of("end_turn"), whole.attribute("gen_ai.response.finish_reasons"));
        ReceivedSpan streamed = collector.await(span -> span.kind() == SpanKind.SPAN_KIND_CLIENT
                && Boolean.TRUE.equals(span.attribute("gen_ai.request.stream")));
        assertEquals("claude-sonnet-4-5-20250929", streamed.attribute("gen_ai.response.model"));
        assertEquals("msg_014p7gG3wDgGV9EUtLvnow3U", streamed.attribute("gen_ai.response.id"));
        assertEquals(List.of("tool_use"), streamed.attribute("gen_ai.response.finish_reasons"));
    }

    @Test
    void aStreamedResponsesAttemptSpanTakesItsFactsFromTheResponseItsLastEventCarries() throws Exception {
        front.upstream().enqueue(new MockResponse.Builder().addHeader("Content-Type", "text/event-stream")
                .body("event: response.created\ndata: {\"type\":\"response.created\",\"sequence_number\":0,"
                        + "\"response\":{\"id\":\"resp_2\",\"status\":\"in_progress\",\"model\":\"gpt-5-2025\","
                        + "\"usage\":null}}\n\n"
                        + "event: response.output_text.delta\ndata: {\"type\":\"response.output_text.delta\","
                        + "\"sequence_number\":1,\"delta\":\"hi\"}\n\n"
                        + "event: response.completed\ndata: {\"type\":\"response.completed\",\"sequence_number\":2,"
                        + "\"response\":{\"id\":\"resp_2\",\"status\":\"completed\",\"model\":\"gpt-5-2025\","
                        + "\"usage\":{\"input_tokens\":3,\"output_tokens\":1,\"total_tokens\":4}}}\n\n").build());

        HttpResponse<String> response = front.gateway().send(front.gateway().request("/api/v1/responses")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"openai/gpt-5\",\"input\":\"hi\","
                        + "\"stream\":true}"))
                .build());

        assertEquals(200, response.statusCode(), response.body());
        ReceivedSpan attempt = collector.await(span -> span.kind() == SpanKind.SPAN_KIND_CLIENT);
        assertEquals("gpt-5-2025", attempt.attribute("gen_ai.response.model"));
        assertEquals("resp_2", attempt.attribute("gen_ai.response.id"));
        assertEquals(List.of("completed"), attempt.attribute("gen_ai.response.finish_reasons"));
        assertEquals(1L, attempt.attribute("gen_ai.usage.output_tokens"));
    }

    @Test
    void anAnswerTooLargeToBeReadWholeStillNamesItsModelAndIdFromItsStart() throws Exception {
        String large = ANSWER.replace("\"hello\"", "\"" + "hello ".repeat(12_000) + "\"");
        front.upstream().enqueue(new MockResponse.Builder().body(large).build());

        HttpResponse<String> response = front.gateway().send(chat("openai/gpt-5", false).build());

        assertEquals(large, response.body());
        ReceivedSpan attempt = collector.await(span -> span.kind() == SpanKind.SPAN_KIND_CLIENT);
        assertEquals("gpt-5-2025", attempt.attribute("gen_ai.response.model"));
        assertEquals("chatcmpl-1", attempt.attribute("gen_ai.response.id"));
        assertEquals(12L, attempt.attribute("gen_ai.usage.input_tokens"));
    }

    @Test
    void aResponsesAttemptSpanTakesAnIncompleteResponsesReasonForItsFinishReason() throws Exception {
        front.upstream().enqueue(new MockResponse.Builder().body("{\"id\":\"resp_1\",\"object\":\"response\","
                + "\"status\":\"incomplete\",\"incomplete_details\":{\"reason\":\"max_output_tokens\"},"
                + "\"model\":\"gpt-5-2025\",\"output\":[{\"type\":\"message\",\"id\":\"msg_1\",\"status\":"
                + "\"incomplete\",\"model\":\"not-this-one\",\"content\":[]}],\"usage\":{\"input_tokens\":5,"
                + "\"output_tokens\":16,\"total_tokens\":21}}").build());

        HttpResponse<String> response = front.gateway().send(front.gateway().request("/api/v1/responses")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"openai/gpt-5\",\"input\":\"hi\"}"))
                .build());

        assertEquals(200, response.statusCode(), response.body());
        ReceivedSpan attempt = collector.await(span -> span.kind() == SpanKind.SPAN_KIND_CLIENT);
        assertEquals("gpt-5-2025", attempt.attribute("gen_ai.response.model"));
        assertEquals("resp_1", attempt.attribute("gen_ai.response.id"));
        assertEquals(List.of("max_output_tokens"), attempt.attribute("gen_ai.response.finish_reasons"));
        assertEquals(16L, attempt.attribute("gen_ai.usage.output_tokens"));
    }

    @Test
    void aKeysLookupInTheStoreIsAChildSpanOfItsFirstRequestAndNotOfTheNextWhichTheCacheAnswers() throws Exception {
        String key = KeysApi.of(front.gateway()).createKey("traced").getString("key");
        for (int i = 0; i < 2; i++) {
            front.upstream().enqueue(new MockResponse.Builder().body(ANSWER).build());
            assertEquals(200, front.gateway().send(chat("openai/gpt-5", false)
                    .setHeader("Authorization", "Bearer " + key).build()).statusCode());
        }

        List<ReceivedSpan> servers = awaitAll(span -> span.kind() == SpanKind.SPAN_KIND_SERVER, 2);
        ReceivedSpan lookup = collector.await(span -> span.name().equals("aigw.key.lookup"));
        assertEquals(SpanKind.SPAN_KIND_INTERNAL, lookup.kind());
        ReceivedSpan first = servers.stream().filter(span -> span.spanId().equals(lookup.parentSpanId()))
                .findFirst().orElseThrow(() -> new AssertionError("no server span is the lookup's parent"));
        assertEquals("traced", first.attribute("aigw.key.name"));
        assertEquals(1, collector.received(span -> span.name().equals("aigw.key.lookup")).size(),
                "the second request's key came from the cache");
    }

    @Test
    void aReservationOfAKeysLimitsInRedisIsAClientSpanOfItsRequest() throws Exception {
        try (LocalRedis redis = LocalRedis.prefix()) {
            front.restart(Map.of("gateway.limits.redis-url", LocalRedis.URL,
                    "gateway.limits.redis-prefix", redis.name()));
            HttpResponse<String> created = KeysApi.of(front.gateway()).create("{\"name\":\"limited\",\"rpm\":50}");
            assertEquals(201, created.statusCode(), created.body());
            front.upstream().enqueue(new MockResponse.Builder().body(ANSWER).build());

            HttpResponse<String> response = front.gateway().send(chat("openai/gpt-5", false)
                    .setHeader("Authorization", "Bearer " + KeysApi.json(created.body()).getString("key")).build());

            assertEquals(200, response.statusCode(), response.body());
            assertEquals("49", response.headers().firstValue("x-ratelimit-remaining-requests").orElseThrow());
            ReceivedSpan server = collector.await(span -> span.kind() == SpanKind.SPAN_KIND_SERVER);
            ReceivedSpan reservation = collector.await(span -> span.name().equals("aigw.limits.reserve"));
            assertEquals(SpanKind.SPAN_KIND_CLIENT, reservation.kind());
            assertEquals("redis", reservation.attribute("db.system.name"));
            assertEquals(server.spanId(), reservation.parentSpanId());
        }
    }

    @Test
    void aRequestWhoseKeyIsNotLookedUpAndWhoseLimitsAreInMemoryHasNoWaitSpans() throws Exception {
        front.upstream().enqueue(new MockResponse.Builder().body(ANSWER).build());

        assertEquals(200, front.gateway().send(chat("openai/gpt-5", false).build()).statusCode());

        collector.await(span -> span.kind() == SpanKind.SPAN_KIND_SERVER);
        assertEquals(List.of(), collector.received(span -> span.name().startsWith("aigw.")));
    }

    @Test
    void theRequestBodyIsRecordedOnlyWhenContentCaptureIsOnAndOnlyUpToItsLimit() throws Exception {
        front.restart(Map.of("gateway.tracing.content.capture", "true", "gateway.tracing.content.max-bytes", "24"));
        front.upstream().enqueue(new MockResponse.Builder().body(ANSWER).build());

        front.gateway().send(chat("openai/gpt-5", false).build());

        ReceivedSpan server = collector.await(span -> span.kind() == SpanKind.SPAN_KIND_SERVER);
        assertEquals("{\"model\":\"openai/gpt-5\",", server.attribute("aigw.request.body"));
        assertEquals(true, server.attribute("aigw.request.body.truncated"));
    }

    @Test
    void tracesGoOnToTheProvidersOnlyWhenAsked() throws Exception {
        front.restart(Map.of("gateway.tracing.propagate-upstream", "true"));
        front.upstream().enqueue(new MockResponse.Builder().body(ANSWER).build());

        front.gateway().send(chat("openai/gpt-5", false)
                .header("traceparent", "00-" + CALLER_TRACE + "-" + CALLER_SPAN + "-01")
                .header("tracestate", "vendor=opaque").build());

        ReceivedSpan attempt = collector.await(span -> span.kind() == SpanKind.SPAN_KIND_CLIENT);
        RecordedRequest upstream = front.upstream().takeRequest(5, TimeUnit.SECONDS);
        assertEquals("00-" + CALLER_TRACE + "-" + attempt.spanId() + "-01", upstream.getHeaders().get("traceparent"));
        assertEquals("vendor=opaque", upstream.getHeaders().get("tracestate"));
    }

    @Test
    void withMetricsExportOnEachAttemptIsInTheGenAiClientMetrics() throws Exception {
        front.restart(Map.of("gateway.tracing.metrics.exporter", "otlp", "gateway.tracing.metrics.interval", "100ms"));
        front.upstream().enqueue(new MockResponse.Builder().body(ANSWER).build());

        assertEquals(200, front.gateway().send(chat("openai/gpt-5", false).build()).statusCode());

        Map<String, Object> model = Map.of("gen_ai.operation.name", "chat", "gen_ai.provider.name", "openai",
                "gen_ai.request.model", "gpt-5");
        OtlpReceiver.ReceivedPoint input = collector.awaitPoint(point -> point.metric().equals("gen_ai.client.token.usage")
                && "input".equals(point.attributes().get("gen_ai.token.type")));
        assertEquals("{token}", input.unit());
        assertEquals(1, input.count());
        assertEquals(12.0, input.sum());
        assertTrue(input.attributes().entrySet().containsAll(model.entrySet()), input.toString());
        OtlpReceiver.ReceivedPoint output = collector.awaitPoint(point -> point.metric().equals("gen_ai.client.token.usage")
                && "output".equals(point.attributes().get("gen_ai.token.type")));
        assertEquals(7.0, output.sum());
        OtlpReceiver.ReceivedPoint duration = collector.awaitPoint(point -> point.metric().equals(
                "gen_ai.client.operation.duration"));
        assertEquals("s", duration.unit());
        assertEquals(model, duration.attributes());
        assertTrue(duration.sum() > 0 && duration.sum() < 10, duration.toString());
    }

    @Test
    void aCollectorThatIsDownCostsNoRequestAndItsDroppedSpansAreCounted() throws Exception {
        double queueFullBefore = dropped("queue_full");
        double failedBefore = dropped("export_failed");
        collector.close();
        front.restart(Map.of("gateway.tracing.batch.queue-size", "1", "gateway.tracing.exporter.timeout", "500ms"));

        for (int i = 0; i < 3; i++) {
            front.upstream().enqueue(new MockResponse.Builder().body(ANSWER).build());
            HttpResponse<String> response = front.gateway().send(chat("openai/gpt-5", false)
                    .timeout(Duration.ofSeconds(5)).build());
            assertEquals(200, response.statusCode());
            assertTrue(response.body().contains("chatcmpl-1"));
        }

        // Two spans a request, one place in the queue: most never wait for the collector.
        assertTrue(awaitDropped("queue_full", queueFullBefore + 1) >= queueFullBefore + 1);
        // The one that waited is dropped once the exporter gives up on the collector.
        assertTrue(awaitDropped("export_failed", failedBefore + 1) >= failedBefore + 1);
    }

    @Test
    void tracingOffAnswersWithoutTraceContextAndRecordsNoTraceId() throws Exception {
        front.restart(Map.of("gateway.tracing.sdk-disabled", "true"));
        // The environment's OTEL_SDK_DISABLED=false wins over the file: this gateway still traces.
        front.upstream().enqueue(new MockResponse.Builder().body(ANSWER).build());
        assertTrue(front.gateway().send(chat("openai/gpt-5", false).build()).headers().firstValue("traceparent")
                .isPresent());

        try (TestGateway off = TestGateway.start(Map.of("providers.openai.base-url",
                front.upstream().url("/v1").toString()), Map.of("OPENAI_API_KEY", "sk-upstream-openai"))) {
            front.upstream().enqueue(new MockResponse.Builder().body(ANSWER).build());

            HttpResponse<String> response = off.send(off.request("/api/v1/chat/completions")
                    .header("Content-Type", "application/json")
                    .header("traceparent", "00-" + CALLER_TRACE + "-" + CALLER_SPAN + "-01")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"openai/gpt-5\",\"messages\":[]}"))
                    .build());

            assertEquals(200, response.statusCode());
            assertTrue(response.headers().firstValue("traceparent").isEmpty());
            front.upstream().takeRequest(5, TimeUnit.SECONDS);
            RecordedRequest upstream = front.upstream().takeRequest(5, TimeUnit.SECONDS);
            assertNull(upstream.getHeaders().get("traceparent"));
            assertEquals(1, CallRecords.usageRecords(off, 1).size());
            try (Connection connection = DriverManager.getConnection(off.databaseUrl());
                 ResultSet rows = connection.createStatement().executeQuery("SELECT trace_id FROM usage_records")) {
                assertTrue(rows.next());
                assertNull(rows.getString(1));
            }
        }
    }

    /**
     * The spans that {@code match}, once {@code count} have come; the spans that ended before them
     * have come too, since the batches are exported in the order spans end.
     */
    private List<ReceivedSpan> awaitAll(Predicate<ReceivedSpan> match, int count) throws Exception {
        collector.await(span -> match.test(span) && collector.received(match).size() >= count);
        return collector.received(match);
    }

    private double dropped(String reason) {
        String metrics = front.gateway().send(HttpRequest.newBuilder(front.gateway().uri("/observe/metrics")).build())
                .body();
        Matcher sample = Pattern.compile("(?m)^gateway_trace_spans_dropped_total\\{[^}]*reason=\"" + reason
                + "\"[^}]*} (\\S+)$").matcher(metrics);
        return sample.find() ? Double.parseDouble(sample.group(1)) : 0;
    }

    private double awaitDropped(String reason, double atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        double now = dropped(reason);
        while (now < atLeast && System.nanoTime() < deadline) {
            Thread.sleep(100);
            now = dropped(reason);
        }
        return now;
    }

    private HttpRequest.Builder chat(String model, boolean stream) {
        return front.gateway().request("/api/v1/chat/completions")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model + "\",\"stream\":" + stream
                        + ",\"messages\":[{\"role\":\"user\",\"content\":\"" + PROMPT + "\"}]}"));
    }

    /** The trace ids of the usage records, once {@code count} are written. */
    private List<String> usageTraceIds(int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try (Connection connection = DriverManager.getConnection(front.gateway().databaseUrl());
                 ResultSet rows = connection.createStatement().executeQuery(
                         "SELECT trace_id FROM usage_records ORDER BY recorded_at")) {
                List<String> ids = new java.util.ArrayList<>();
                while (rows.next()) {
                    ids.add(rows.getString(1));
                }
                if (ids.size() >= count || System.nanoTime() > deadline) {
                    return ids;
                }
            }
            Thread.sleep(50);
        }
    }
}
