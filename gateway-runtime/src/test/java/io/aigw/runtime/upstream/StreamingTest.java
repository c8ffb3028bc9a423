package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.RawCaller;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

public final class StreamingTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String REQUEST = "{\"model\":\"openai/gpt-5\",\"stream\":true,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    private static final String FIRST = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\","
            + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hel\"}}]}\n\n";
    private static final String SECOND = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\","
            + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"lo\"},\"finish_reason\":\"stop\"}]}\n\n";
    private static final String DONE = "data: [DONE]\n\n";

    @RegisterExtension
    final GatewayInFront<ScriptedUpstream> front = GatewayInFront.scripted().config("gateway.timeouts.idle", "1s");

    @Test
    void eventsReachTheCallerWhileTheUpstreamIsStillHoldingTheRest() throws Exception {
        CompletableFuture<HttpResponse<InputStream>> response = front.gateway().client().sendAsync(streamRequest(),
                HttpResponse.BodyHandlers.ofInputStream());
        Exchange exchange = front.upstream().take(WAIT);
        // With parameters, in another case: still a stream, and its Content-Type goes out as sent.
        exchange.startStream(200, "Text/Event-Stream; charset=utf-8");
        exchange.send(FIRST);
        exchange.send(": keep-alive\n\n");

        HttpResponse<InputStream> caller = response.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(200, caller.statusCode());
        assertEquals("Text/Event-Stream; charset=utf-8", caller.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("openai", caller.headers().firstValue("X-Gateway-Provider").orElseThrow());
        InputStream events = caller.body();
        // The upstream sends nothing more until the caller has these: a buffering gateway stalls here.
        assertEquals(FIRST + ": keep-alive\n\n", readExactly(events, (FIRST + ": keep-alive\n\n").length()));

        exchange.send(SECOND);
        exchange.send(DONE);
        exchange.end();
        assertEquals(SECOND + DONE, new String(events.readAllBytes(), StandardCharsets.UTF_8));
        assertTrue(exchange.body().contains("\"model\":\"gpt-5\""), exchange.body());
    }

    @Test
    void eventsSplitAcrossChunksAreDeliveredWhole() throws Exception {
        CompletableFuture<HttpResponse<String>> response = front.gateway().client().sendAsync(streamRequest(),
                HttpResponse.BodyHandlers.ofString());
        Exchange exchange = front.upstream().take(WAIT);
        exchange.startStream(200, "text/event-stream; charset=utf-8");
        exchange.send(FIRST.substring(0, 10));
        exchange.send(FIRST.substring(10) + SECOND.substring(0, 5));
        exchange.send(SECOND.substring(5) + DONE);
        exchange.end();

        HttpResponse<String> caller = response.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(FIRST + SECOND + DONE, caller.body());
    }

    @Test
    void anUpstreamThatBreaksMidStreamEndsTheStreamWithAnErrorEvent() throws Exception {
        CompletableFuture<HttpResponse<InputStream>> response = front.gateway().client().sendAsync(streamRequest(),
                HttpResponse.BodyHandlers.ofInputStream());
        Exchange exchange = front.upstream().take(WAIT);
        exchange.startStream(200, "text/event-stream");
        exchange.send(FIRST);
        HttpResponse<InputStream> caller = response.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(200, caller.statusCode());
        assertEquals(FIRST, new String(caller.body().readNBytes(FIRST.length()), StandardCharsets.UTF_8));
        exchange.abort();

        assertEquals("data: {\"error\":{\"message\":\"The connection to upstream openai broke mid-stream.\","
                        + "\"type\":\"upstream_error\",\"param\":null,\"code\":null}}\n\n",
                new String(caller.body().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void anUpstreamSilentForLongerThanTheIdleTimeoutIsCutWithATimeoutEvent() throws Exception {
        CompletableFuture<HttpResponse<String>> response = front.gateway().client().sendAsync(streamRequest(),
                HttpResponse.BodyHandlers.ofString());
        Exchange exchange = front.upstream().take(WAIT);
        exchange.startStream(200, "text/event-stream");
        exchange.send(FIRST);

        HttpResponse<String> caller = response.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(FIRST + "data: {\"error\":{\"message\":\"Upstream openai sent nothing for 1 s"
                + " (gateway.timeouts.idle); the stream was cut.\",\"type\":\"upstream_error\",\"param\":null,"
                + "\"code\":\"timeout\"}}\n\n", caller.body());
        assertTrue(exchange.awaitClosedByPeer(WAIT), "the gateway must drop the silent upstream connection");
    }

    @Test
    void aCallerThatLeavesMidStreamCancelsTheUpstreamCall() throws Exception {
        try (Socket caller = new Socket("127.0.0.1", front.gateway().gateway().port())) {
            RawCaller.sendChat(caller, REQUEST);
            Exchange exchange = front.upstream().take(WAIT);
            exchange.startStream(200, "text/event-stream");
            exchange.send(FIRST);
            RawCaller.readUntil(caller.getInputStream(), "data: ");
            caller.close();
            assertTrue(exchange.keepStreamingUntilClosed(SECOND, WAIT),
                    "the upstream connection must be closed by the gateway");
        }
    }

    @Test
    void manyAbortedStreamsLeaveNoConnectionOrThreadBehind() throws Exception {
        int threadsBefore = Thread.getAllStackTraces().size();
        int aborted = 40;
        for (int i = 0; i < aborted; i++) {
            try (Socket caller = new Socket("127.0.0.1", front.gateway().gateway().port())) {
                RawCaller.sendChat(caller, REQUEST);
                Exchange exchange = front.upstream().take(WAIT);
                exchange.startStream(200, "text/event-stream");
                exchange.send(FIRST);
                RawCaller.readUntil(caller.getInputStream(), "data: ");
                caller.close();
                assertTrue(exchange.keepStreamingUntilClosed(SECOND, WAIT), "stream " + i + " left its upstream open");
            }
        }
        assertEquals(aborted, front.upstream().closedByPeer());
        assertTrue(Thread.getAllStackTraces().size() <= threadsBefore + 5,
                "platform threads grew from " + threadsBefore + " to " + Thread.getAllStackTraces().size());
        // The gateway still serves streams afterwards.
        CompletableFuture<HttpResponse<String>> response = front.gateway().client().sendAsync(streamRequest(),
                HttpResponse.BodyHandlers.ofString());
        Exchange exchange = front.upstream().take(WAIT);
        exchange.startStream(200, "text/event-stream");
        exchange.send(FIRST + DONE);
        exchange.end();
        assertEquals(FIRST + DONE, response.get(WAIT.toSeconds(), TimeUnit.SECONDS).body());
    }

    private HttpRequest streamRequest() {
        return front.gateway().request("/api/v1/chat/completions")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(REQUEST))
                .build();
    }

    private static String readExactly(InputStream in, int length) throws Exception {
        CompletableFuture<byte[]> read = CompletableFuture.supplyAsync(() -> {
            try {
                return in.readNBytes(length);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        return new String(read.get(WAIT.toSeconds(), TimeUnit.SECONDS), StandardCharsets.UTF_8);
    }
}
