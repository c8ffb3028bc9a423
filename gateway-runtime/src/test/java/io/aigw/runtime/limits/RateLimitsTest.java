package io.aigw.runtime.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.CallRecords;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.TestGateway;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A key's rpm and tpm on one gateway (counters in memory): what a request reserves, what its answer
 * settles it to, what a failed call gives back, and what the caller is told in the headers.
 */
public final class RateLimitsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String ANSWER = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[],"
            + "\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":10,\"total_tokens\":30}}";

    private ScriptedUpstream upstream;
    private TestGateway gateway;
    private KeysApi keys;

    @BeforeEach
    void start() throws Exception {
        upstream = new ScriptedUpstream();
        gateway = TestGateway.start(Map.of("providers.openai.base-url", upstream.baseUrl(),
                "gateway.access-log", "off"), Map.of("OPENAI_API_KEY", "sk-upstream"));
        keys = KeysApi.of(gateway);
    }

    @AfterEach
    void stop() throws Exception {
        gateway.close();
        upstream.close();
    }

    @Test
    void anAnswerSettlesItsReservationToTheTokensItReported() throws Exception {
        String key = key(10, 100_000);
        String body = body(false, 200);

        CompletableFuture<HttpResponse<String>> first = send(key, body);
        answer(upstream.take(WAIT), 200, ANSWER);
        HttpResponse<String> answered = first.get();
        assertEquals(200, answered.statusCode());
        assertEquals("9", header(answered, "x-ratelimit-remaining-requests"));
        assertEquals(Long.toString(100_000 - estimate(body)), header(answered, "x-ratelimit-remaining-tokens"),
                "the estimate is held while the call runs");
        CallRecords.usageStatuses(gateway, 1);

        CompletableFuture<HttpResponse<String>> second = send(key, body);
        answer(upstream.take(WAIT), 200, ANSWER);
        assertEquals(Long.toString(100_000 - 30 - estimate(body)),
                header(second.get(), "x-ratelimit-remaining-tokens"), "the first now counts its 30 tokens");
        assertEquals("8", header(second.get(), "x-ratelimit-remaining-requests"));
    }

    @Test
    void aFailedUpstreamCallGivesItsRequestAndTokensBack() throws Exception {
        String key = key(10, 100_000);
        String body = body(false, 200);

        CompletableFuture<HttpResponse<String>> failed = send(key, body);
        answer(upstream.take(WAIT), 500, "{\"error\":{\"message\":\"boom\",\"type\":\"server_error\"}}");
        assertEquals(500, failed.get().statusCode());
        assertEquals("9", header(failed.get(), "x-ratelimit-remaining-requests"), "reserved while it ran");
        CallRecords.usageStatuses(gateway, 1);

        CompletableFuture<HttpResponse<String>> next = send(key, body);
        answer(upstream.take(WAIT), 200, ANSWER);
        assertEquals("9", header(next.get(), "x-ratelimit-remaining-requests"), "the failed call was released");
        assertEquals(Long.toString(100_000 - estimate(body)), header(next.get(), "x-ratelimit-remaining-tokens"));
    }

    @Test
    void aStreamCutAfterItsUsageSettlesToThatUsageAndStaysCounted() throws Exception {
        String key = key(10, 100_000);
        String streamed = body(true, 300);

        CompletableFuture<HttpResponse<String>> cut = send(key, streamed);
        ScriptedUpstream.Exchange exchange = upstream.take(WAIT);
        exchange.startStream(200, "text/event-stream");
        exchange.send("data: {\"id\":\"c\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hel\"}}]}\n\n");
        exchange.send("data: {\"id\":\"c\",\"choices\":[],\"usage\":{\"prompt_tokens\":11,\"completion_tokens\":7,"
                + "\"total_tokens\":18}}\n\n");
        exchange.abort();
        assertEquals(200, cut.get().statusCode());
        assertTrue(cut.get().body().contains("\"upstream_error\""), cut.get().body());
        assertEquals(List.of(502), CallRecords.usageStatuses(gateway, 1), "recorded as cut");

        String plain = body(false, 100);
        CompletableFuture<HttpResponse<String>> next = send(key, plain);
        answer(upstream.take(WAIT), 200, ANSWER);
        assertEquals("8", header(next.get(), "x-ratelimit-remaining-requests"), "the cut stream stays counted");
        assertEquals(Long.toString(100_000 - 18 - estimate(plain)), header(next.get(), "x-ratelimit-remaining-tokens"),
                "settled to its 18 tokens");
    }

    @Test
    void aRequestOverTheTokenLimitIsRefusedWith429AndNeverSent() throws Exception {
        String key = key(10, 1000);
        String body = body(false, 900);

        CompletableFuture<HttpResponse<String>> first = send(key, body);
        ScriptedUpstream.Exchange inFlight = upstream.take(WAIT);
        HttpResponse<String> refused = send(key, body).get();
        answer(inFlight, 200, ANSWER);
        assertEquals(200, first.get().statusCode(), first.get().body());

        assertEquals(429, refused.statusCode());
        assertTrue(refused.body().startsWith("{\"error\":{\"message\":\"Rate limit reached for this workspace key:"
                + " 1000 tokens a minute, "), refused.body());
        assertTrue(refused.body().endsWith("\"type\":\"tokens\",\"param\":null,\"code\":\"rate_limit_exceeded\"}}"),
                refused.body());
        assertEquals("9", header(refused, "x-ratelimit-remaining-requests"), "the request in flight is counted");
        assertTrue(Integer.parseInt(header(refused, "retry-after")) >= 1);
        CallRecords.usageStatuses(gateway, 2);
        assertEquals(List.of(), upstream.pending(), "the refused request was never sent");
    }

    @Test
    void aRequestWhoseEstimateAloneIsOverTheTokenLimitIsA400WithoutRetryAfterAndNeverSent() throws Exception {
        String key = key(10, 1000);
        String body = body(false, 990);

        HttpResponse<String> refused = send(key, body).get();

        assertEquals(400, refused.statusCode());
        long prompt = estimate(body) - 990;
        assertEquals("{\"error\":{\"message\":\"This request is estimated at " + (prompt + 990) + " tokens, more than"
                + " this workspace key's limit of 1000 tokens a minute, so it can never be admitted: " + prompt + " for"
                + " its prompt (its body's length over 4) and 990 for its answer (its max_completion_tokens). Set a"
                + " lower max_completion_tokens or send a shorter prompt, or ask an admin to raise the key's tpm.\","
                + "\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"request_exceeds_tpm\"}}",
                refused.body());
        assertTrue(refused.headers().firstValue("retry-after").isEmpty(), refused.headers().map().toString());
        assertEquals(List.of(400), CallRecords.usageStatuses(gateway, 1));
        assertEquals(List.of(), upstream.pending(), "never sent");

        HttpResponse<String> plain = send(key, "{\"model\":\"openai/gpt-5\",\"messages\":[]}").get();
        assertEquals(400, plain.statusCode(), "a model without recent answers is estimated at 4096");
        assertTrue(plain.body().contains(" and 4096 for its answer (the gateway's default for a model without recent"
                + " answers)."), plain.body());
    }

    @Test
    void withoutMaxTokensAModelWithoutRecentAnswersIsEstimatedAt4096TokensNotItsOutputCap() throws Exception {
        String key = key(10, 40_000);
        String body = "{\"model\":\"openai/gpt-5\",\"messages\":[]}";

        CompletableFuture<HttpResponse<String>> sent = send(key, body);
        answer(upstream.take(WAIT), 200, ANSWER);

        assertEquals(200, sent.get().statusCode(), "gpt-5 may write 128 000 tokens: " + sent.get().body());
        assertEquals(Long.toString(40_000 - (body.length() + 3) / 4 - 4096),
                header(sent.get(), "x-ratelimit-remaining-tokens"));
    }

    @Test
    void withoutMaxTokensTheOutputEstimateFollowsTheModelsRecentAnswers() throws Exception {
        String unlimited = KeysApi.json(keys.create("{\"name\":\"unlimited\"}").body()).getString("key");
        for (int i = 1; i <= 20; i++) {
            CompletableFuture<HttpResponse<String>> sent = send(unlimited, body(false, 50_000));
            answer(upstream.take(WAIT), 200, "{\"id\":\"chatcmpl-" + i + "\",\"object\":\"chat.completion\","
                    + "\"choices\":[],\"usage\":{\"prompt_tokens\":20,\"completion_tokens\":" + i * 1000
                    + ",\"total_tokens\":" + (20 + i * 1000) + "}}");
            assertEquals(200, sent.get().statusCode());
        }
        String key = key(10, 100_000);
        String body = "{\"model\":\"openai/gpt-5\",\"messages\":[]}";

        CompletableFuture<HttpResponse<String>> sent = send(key, body);
        answer(upstream.take(WAIT), 200, ANSWER);

        assertEquals(Long.toString(100_000 - (body.length() + 3) / 4 - 19_000),
                header(sent.get(), "x-ratelimit-remaining-tokens"),
                "19 000 tokens: 19 of its 20 answers wrote no more, the 95th percentile");
    }

    private String key(long rpm, long tpm) {
        HttpResponse<String> created = keys.create("{\"name\":\"limited\",\"rpm\":" + rpm + ",\"tpm\":" + tpm + "}");
        assertEquals(201, created.statusCode(), created.body());
        return KeysApi.json(created.body()).getString("key");
    }

    private static String body(boolean stream, int maxTokens) {
        return "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"Say hello\"}],"
                + "\"stream\":" + stream + ",\"max_tokens\":" + maxTokens + "}";
    }

    /** The documented estimate: the body's bytes over four, rounded up, and its max_tokens. */
    private static long estimate(String body) {
        int bytes = body.getBytes(StandardCharsets.UTF_8).length;
        int maxTokens = Integer.parseInt(body.replaceAll(".*\"max_tokens\":(\\d+).*", "$1"));
        return (bytes + 3) / 4 + maxTokens;
    }

    private CompletableFuture<HttpResponse<String>> send(String key, String body) {
        return gateway.client().sendAsync(keys.request("/api/v1/chat/completions", key)
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static void answer(ScriptedUpstream.Exchange exchange, int status, String json) throws Exception {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.startAnswer(status, "application/json", bytes.length);
        exchange.write(json);
    }

    private static String header(HttpResponse<String> response, String name) {
        return response.headers().firstValue(name).orElseThrow(() -> new AssertionError("no " + name + " in "
                + response.headers().map()));
    }
}
