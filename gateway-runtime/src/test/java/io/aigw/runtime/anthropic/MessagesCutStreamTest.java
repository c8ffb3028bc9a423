package io.aigw.runtime.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.AnthropicUpstream;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Messages stream whose upstream breaks or stops short ends, for the caller, with Anthropic's
 * {@code error} event, which its SDKs raise, never with a silent close; it is settled with the usage
 * {@code message_start} reported.
 */
public final class MessagesCutStreamTest {
    private static final Duration WAIT = Duration.ofSeconds(10);

    @RegisterExtension
    final GatewayInFront<ScriptedUpstream> front = GatewayInFront.scripted().alsoFor("anthropic")
            .config("gateway.access-log", "off");

    private CompletableFuture<HttpResponse<String>> stream() {
        return front.gateway().client().sendAsync(HttpRequest.newBuilder(front.gateway().uri("/anthropic/v1/messages"))
                .header("x-api-key", TestGateway.KEY)
                .POST(HttpRequest.BodyPublishers.ofString(MessagesRelayTest.body("claude-sonnet-4-5", true))).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void aStreamWhoseUpstreamBrokeEndsWithAnErrorEventAndIsSettled() throws Exception {
        CompletableFuture<HttpResponse<String>> sent = stream();
        Exchange exchange = front.upstream().take(WAIT);
        exchange.startStream(200, "text/event-stream");
        exchange.send(AnthropicUpstream.STREAM_START);
        exchange.abort();

        String body = sent.get().body();
        assertTrue(body.startsWith(AnthropicUpstream.STREAM_START), body);
        String end = body.substring(AnthropicUpstream.STREAM_START.length());
        assertTrue(end.startsWith("event: error\ndata: ") && end.endsWith("}\n\n"), end);
        JsonObject error = KeysApi.json(end.substring("event: error\ndata: ".length()).strip());
        assertEquals("error", error.getString("type"));
        assertEquals("api_error", error.getJsonObject("error").getString("type"));
        assertTrue(error.getJsonObject("error").getString("message").contains("broke mid-stream"), end);
        // message_start's 472 input, 1 000 cache write, 20 000 cache read and 2 output tokens: USD 0.011196.
        assertEquals("502 21472 2 11196", record());
    }

    @Test
    void aStreamThatEndedWithItsConnectionBeforeMessageStopIsCutToo() throws Exception {
        CompletableFuture<HttpResponse<String>> sent = stream();
        Exchange exchange = front.upstream().take(WAIT);
        exchange.startUnframed(200, "text/event-stream");
        exchange.write(AnthropicUpstream.STREAM_START);
        exchange.close();

        String body = sent.get().body();
        assertTrue(body.startsWith(AnthropicUpstream.STREAM_START), body);
        assertTrue(body.substring(AnthropicUpstream.STREAM_START.length()).startsWith("event: error\n"), body);
    }

    @Test
    void aStreamThatEndedWithItsConnectionAfterMessageStopIsWhole() throws Exception {
        CompletableFuture<HttpResponse<String>> sent = stream();
        Exchange exchange = front.upstream().take(WAIT);
        exchange.startUnframed(200, "text/event-stream");
        exchange.write(AnthropicUpstream.STREAM);
        exchange.close();

        assertEquals(AnthropicUpstream.STREAM, sent.get().body());
        assertEquals("200 21472 89 12501", record());
    }

    /** The one usage record's status, prompt and completion tokens and cost in micro-dollars, once written. */
    private String record() throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (true) {
            try (Connection connection = DriverManager.getConnection(front.gateway().databaseUrl());
                 ResultSet rows = connection.createStatement().executeQuery("SELECT status, prompt_tokens,"
                         + " completion_tokens, cost_nanos FROM usage_records")) {
                if (rows.next()) {
                    return rows.getInt(1) + " " + rows.getLong(2) + " " + rows.getLong(3) + " "
                            + rows.getLong(4) / 1000;
                }
            }
            if (System.nanoTime() > deadline) {
                return "none";
            }
            Thread.sleep(50);
        }
    }
}
