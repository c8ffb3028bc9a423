package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.LogRecords;
import io.aigw.runtime.testing.RawCaller;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import io.aigw.runtime.transport.CallerReserve;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Past gateway.max-concurrent-requests a caller gets a 503 it can retry, and past half as many again
 * connections it waits to be accepted: not a gateway out of memory.
 */
class ConcurrencyLimitTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String STREAM = "{\"model\":\"openai/gpt-5\",\"stream\":true,\"messages\":[]}";
    private static final String EVENT = "data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\n";

    @RegisterExtension
    final GatewayInFront<ScriptedUpstream> front = GatewayInFront.scripted().config("gateway.max-concurrent-requests", "1");

    @Test
    void aRequestBeyondTheLimitIsRefusedWithARetryableErrorAndTheNextOneAfterwardsGoesThrough() throws Exception {
        CompletableFuture<HttpResponse<String>> first = front.gateway().client().sendAsync(
                front.gateway().request("/api/v1/chat/completions")
                        .POST(java.net.http.HttpRequest.BodyPublishers.ofString(STREAM)).build(),
                HttpResponse.BodyHandlers.ofString());
        Exchange held = front.upstream().take(WAIT);
        held.startStream(200, "text/event-stream");
        held.send(EVENT);

        HttpResponse<String> refused;
        try (LogRecords logs = LogRecords.capture()) {
            refused = front.gateway().chat(STREAM);
            assertEquals(503, front.gateway().chat(STREAM).statusCode());
            // The operator learns once that the limit turns callers away, and which setting it is.
            assertEquals(List.of("At the limit of requests in flight (gateway.max-concurrent-requests is 1): callers"
                    + " get 503 with Retry-After until some end; docs/operations.md, \"Sizing\", says how to raise it."),
                    logs.messages(Level.WARNING, "io.aigw"));
        }
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

        CompletableFuture<HttpResponse<String>> next = CompletableFuture.supplyAsync(() -> front.gateway().chat(STREAM));
        Exchange after = front.upstream().take(WAIT);
        after.startStream(200, "text/event-stream");
        after.send("data: [DONE]\n\n");
        after.end();
        assertEquals(200, next.get(WAIT.toSeconds(), TimeUnit.SECONDS).statusCode());
    }

    @Test
    void aConnectionBeyondTheCallersShareGets503AndOneBeyondTheReserveIsAcceptedOnlyWhenAnotherCloses()
            throws Exception {
        // One concurrent request: 1 + 64 connections for callers, and CallerReserve.RESERVE more for /observe/*.
        List<Socket> open = new ArrayList<>();
        try (Socket waiting = new Socket()) {
            for (int i = 0; i < 65; i++) {
                Socket caller = new Socket("127.0.0.1", front.gateway().uri("/").getPort());
                open.add(caller);
                RawCaller.sendGet(caller, "/api/v1/models");
                RawCaller.readUntil(caller.getInputStream(), "HTTP/1.1 200");
            }
            // Past the callers' share, a caller's request is refused at once, for health's sake.
            try (Socket beyond = new Socket("127.0.0.1", front.gateway().uri("/").getPort())) {
                beyond.setSoTimeout((int) WAIT.toMillis());
                RawCaller.sendGet(beyond, "/api/v1/models");
                RawCaller.readUntil(beyond.getInputStream(), "HTTP/1.1 503");
            }
            // The reserve held by health checks that have begun their request (an idle one goes in a second).
            for (int i = 0; i < CallerReserve.RESERVE; i++) {
                Socket check = new Socket("127.0.0.1", front.gateway().uri("/").getPort());
                open.add(check);
                check.getOutputStream().write("GET /observe/health".getBytes(StandardCharsets.US_ASCII));
            }

            // The kernel completes the handshake, but the gateway does not take the connection yet.
            waiting.connect(new InetSocketAddress("127.0.0.1", front.gateway().uri("/").getPort()));
            RawCaller.sendGet(waiting, "/api/v1/models");
            waiting.setSoTimeout(500);
            assertThrows(SocketTimeoutException.class, () -> waiting.getInputStream().read());

            open.removeLast().close();
            waiting.setSoTimeout((int) WAIT.toMillis());
            RawCaller.readUntil(waiting.getInputStream(), "HTTP/1.1 503");
        } finally {
            for (Socket caller : open) {
                caller.close();
            }
        }
    }
}
