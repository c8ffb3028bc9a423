package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import io.aigw.runtime.testing.TestGateway;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Past gateway.max-concurrent-requests a caller gets a 503 it can retry, not a gateway out of memory. */
class ConcurrencyLimitTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String STREAM = "{\"model\":\"openai/gpt-5\",\"stream\":true,\"messages\":[]}";
    private static final String EVENT = "data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\n";

    private ScriptedUpstream upstream;
    private TestGateway gateway;

    @BeforeEach
    void start() throws IOException {
        upstream = new ScriptedUpstream();
        gateway = TestGateway.start(Map.of(
                        "providers.openai.base-url", upstream.baseUrl(),
                        "gateway.max-concurrent-requests", "1"),
                Map.of("OPENAI_API_KEY", "sk-upstream-openai"));
    }

    @AfterEach
    void stop() throws IOException {
        gateway.close();
        upstream.close();
    }

    @Test
    void aRequestBeyondTheLimitIsRefusedWithARetryableErrorAndTheNextOneAfterwardsGoesThrough() throws Exception {
        CompletableFuture<HttpResponse<String>> first = gateway.client().sendAsync(
                gateway.request("/api/v1/chat/completions")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(STREAM)).build(),
                HttpResponse.BodyHandlers.ofString());
        Exchange held = upstream.take(WAIT);
        held.startStream(200, "text/event-stream");
        held.send(EVENT);

        HttpResponse<String> refused = gateway.chat(STREAM);
        assertEquals(503, refused.statusCode());
        assertEquals("1", refused.headers().firstValue("Retry-After").orElseThrow());
        assertEquals("{\"error\":{\"message\":\"The gateway is relaying its limit of 1 concurrent requests"
                + " (gateway.max-concurrent-requests); retry shortly.\",\"type\":\"server_error\",\"param\":null,"
                + "\"code\":\"overloaded\"}}", refused.body());

        held.send("data: [DONE]\n\n");
        held.end();
        assertEquals(EVENT + "data: [DONE]\n\n", first.get(WAIT.toSeconds(), TimeUnit.SECONDS).body());
        // The scripted upstream answers one request per connection: the next must come on a new one.
        held.abort();

        CompletableFuture<HttpResponse<String>> next = CompletableFuture.supplyAsync(() -> gateway.chat(STREAM));
        Exchange after = upstream.take(WAIT);
        after.startStream(200, "text/event-stream");
        after.send("data: [DONE]\n\n");
        after.end();
        assertEquals(200, next.get(WAIT.toSeconds(), TimeUnit.SECONDS).statusCode());
    }
}
