package io.aigw.runtime.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.CallRecords;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.ResponsesUpstream;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Responses stream whose upstream stops before {@code response.completed} ends, for the caller,
 * with the Responses API's own {@code error} event numbered after the last event relayed, never a
 * silent close; it is recorded as cut (502) and charged by estimate, having reported no usage.
 */
public final class CutResponsesStreamTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @RegisterExtension
    final GatewayInFront<ScriptedUpstream> front = GatewayInFront.scripted().config("gateway.access-log", "off");

    @Test
    void aStreamCutMidWayEndsWithAnErrorEventAndIsChargedByEstimate() throws Exception {
        List<String> events = ResponsesUpstream.events("resp_cut", "gpt-5",
                List.of(new ResponsesUpstream.Message("msg_1", "A long story that never ends")),
                new ResponsesUpstream.Usage(10, 0, 20, 0));
        List<String> sent = events.subList(0, 6);
        CompletableFuture<HttpResponse<String>> answer = front.gateway().client().sendAsync(
                front.gateway().request("/api/v1/responses").header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(
                                "{\"model\":\"openai/gpt-5\",\"input\":\"Tell a story\",\"stream\":true}")).build(),
                HttpResponse.BodyHandlers.ofString());
        Exchange exchange = front.upstream().take(WAIT);
        exchange.startStream(200, "text/event-stream");
        for (String event : sent) {
            exchange.send(event);
        }
        exchange.close();

        HttpResponse<String> caller = answer.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(200, caller.statusCode());
        String relayed = String.join("", sent);
        assertTrue(caller.body().startsWith(relayed), caller.body());
        assertEquals("event: error\ndata: {\"type\":\"error\",\"code\":\"upstream_error\",\"message\":\"The connection"
                + " to upstream openai broke mid-stream.\",\"param\":null,\"sequence_number\":6}\n\n",
                caller.body().substring(relayed.length()));
        String record = CallRecords.costedRecords(front.gateway(), 1).get(0);
        assertTrue(record.startsWith("502 ") && record.contains(" estimated "), record);
    }
}
