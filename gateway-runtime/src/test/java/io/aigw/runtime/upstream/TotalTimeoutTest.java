package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.CallRecords;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code gateway.timeouts.total} bounds a whole call, however steadily the upstream keeps it alive:
 * an upstream that drips a byte now and then never passes the idle timeout, and without a total
 * would hold its caller for good.
 */
public final class TotalTimeoutTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String PLAIN = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    private static final String STREAM = "{\"model\":\"openai/gpt-5\",\"stream\":true,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    private static final String TIMED_OUT = "{\"error\":{\"message\":\"Upstream openai did not answer within 2 s"
            + " (gateway.timeouts.total).\",\"type\":\"upstream_error\",\"param\":null,\"code\":\"timeout\"}}";
    private static final String EVENT = "data: {\"choices\":[{\"delta\":{\"content\":\"x\"}}]}\n\n";

    @RegisterExtension
    final GatewayInFront<ScriptedUpstream> front = GatewayInFront.scripted().withAccessLog()
            .config("gateway.timeouts.first-byte", "60s")
            .config("gateway.timeouts.idle", "60s")
            .config("gateway.timeouts.total", "2s");
    private Map<Integer, Double> countedBefore;

    @BeforeEach
    void countBefore() {
        countedBefore = CallRecords.requestsCounted(front.gateway());
    }

    @Test
    void anUpstreamThatSendsNoHeadersWithinTheTotalIsCutWith504() throws Exception {
        CompletableFuture<HttpResponse<String>> response = sendAsync(PLAIN);
        Exchange exchange = front.upstream().take(WAIT);

        assertTrue(exchange.awaitClosedByPeer(WAIT), "the gateway must end the call at the total timeout");
        HttpResponse<String> caller = response.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(504, caller.statusCode());
        assertEquals(TIMED_OUT, caller.body());
        assertRecorded(504);
    }

    @Test
    void aPlainAnswerDrippedPastTheTotalIsCutWith504() throws Exception {
        CompletableFuture<HttpResponse<String>> response = sendAsync(PLAIN);
        Exchange exchange = front.upstream().take(WAIT);
        exchange.startAnswer(200, "application/json", 1_000_000);
        exchange.write("{\"choices\":[");

        assertTrue(exchange.keepWritingUntilClosed("{},", WAIT), "the gateway must end the call at the total timeout");
        HttpResponse<String> caller = response.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(504, caller.statusCode());
        assertEquals(TIMED_OUT, caller.body());
        assertRecorded(504);
    }

    @Test
    void aStreamThatRunsPastTheTotalEndsWithATimeoutEvent() throws Exception {
        CompletableFuture<HttpResponse<String>> response = sendAsync(STREAM);
        Exchange exchange = front.upstream().take(WAIT);
        exchange.startStream(200, "text/event-stream");

        assertTrue(exchange.keepStreamingUntilClosed(EVENT, WAIT), "the gateway must end the stream at the total timeout");
        HttpResponse<String> caller = response.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(200, caller.statusCode());
        assertTrue(caller.body().startsWith(EVENT), caller.body());
        assertTrue(caller.body().endsWith(EVENT + "data: {\"error\":{\"message\":\"The call to upstream openai took"
                + " longer than 2 s (gateway.timeouts.total); the stream was cut.\",\"type\":\"upstream_error\","
                + "\"param\":null,\"code\":\"timeout\"}}\n\n"), caller.body());
        assertRecorded(504);
    }

    private CompletableFuture<HttpResponse<String>> sendAsync(String body) {
        return front.gateway().client().sendAsync(front.gateway().request("/api/v1/chat/completions")
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private void assertRecorded(int status) {
        assertEquals(List.of(status), CallRecords.usageStatuses(front.gateway(), 1));
        assertEquals(status, CallRecords.accessLogLines(front.accessLog(), 1).getFirst().getInt("status"));
        assertEquals(1, CallRecords.countedSince(countedBefore, CallRecords.requestsCounted(front.gateway()), status));
    }
}
