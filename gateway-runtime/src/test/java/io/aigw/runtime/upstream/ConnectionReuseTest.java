package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.RawCaller;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import io.aigw.runtime.testing.TestGateway;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import mockwebserver3.SocketEffect;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Keep-alive to upstreams: which connection each request reaches, as the upstream sees it. What
 * holds for either pool ({@code gateway.transport.upstream-pool}) is tested with both.
 */
public final class ConnectionReuseTest {
    private static final String POOL = "gateway.transport.upstream-pool";
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String ANSWER = "{\"object\":\"chat.completion\",\"model\":\"gpt-5\"}";
    private static final String EVENT = "data: {\"object\":\"chat.completion.chunk\"}\n\n";

    @ParameterizedTest
    @ValueSource(strings = {"gateway", "helidon"})
    void sequentialRequestsShareOneUpstreamConnection(String pool) throws Exception {
        try (MockWebServer upstream = startMockUpstream(); TestGateway gateway = startGateway(upstream.url("/v1")
                .toString(), Map.of(POOL, pool))) {
            for (int i = 0; i < 3; i++) {
                upstream.enqueue(new MockResponse.Builder().body(ANSWER).build());
                assertEquals(200, gateway.chat(chat("request " + i, false)).statusCode());
            }

            for (int i = 0; i < 3; i++) {
                RecordedRequest received = upstream.takeRequest(5, TimeUnit.SECONDS);
                assertEquals(0, received.getConnectionIndex(), "request " + i + " opened another connection");
                assertEquals(i, received.getExchangeIndex());
            }
        }
    }

    /**
     * An answer the gateway does not relay as it came (an error it passes on in its own words, a
     * 200 that is no JSON) still ends its body: the connection serves the next request.
     */
    @ParameterizedTest
    @ValueSource(strings = {"gateway", "helidon"})
    void answersNotRelayedAsTheyCameLeaveTheConnectionForTheNextRequest(String pool) throws Exception {
        try (MockWebServer upstream = startMockUpstream(); TestGateway gateway = startGateway(upstream.url("/v1")
                .toString(), Map.of(POOL, pool))) {
            upstream.enqueue(new MockResponse.Builder().code(400).addHeader("Content-Type", "application/json")
                    .body("{\"error\":{\"message\":\"bad\",\"type\":\"invalid_request_error\"}}").build());
            upstream.enqueue(new MockResponse.Builder().body("<html>maintenance</html>").build());
            upstream.enqueue(new MockResponse.Builder().body(ANSWER).build());

            assertEquals(400, gateway.chat(chat("refused", false)).statusCode());
            assertEquals(502, gateway.chat(chat("not json", false)).statusCode());
            assertEquals(200, gateway.chat(chat("answered", false)).statusCode());

            for (int i = 0; i < 3; i++) {
                RecordedRequest received = upstream.takeRequest(5, TimeUnit.SECONDS);
                assertEquals(0, received.getConnectionIndex(), "request " + i + " opened another connection");
                assertEquals(i, received.getExchangeIndex());
            }
        }
    }

    @Test
    void anIdleConnectionTheUpstreamClosedIsReplacedAndTheRequestSentOnce() throws Exception {
        try (MockWebServer upstream = startMockUpstream(); TestGateway gateway = startGateway(upstream.url("/v1")
                .toString(), Map.of())) {
            upstream.enqueue(new MockResponse.Builder().body(ANSWER).onResponseEnd(new SocketEffect.CloseSocket())
                    .build());
            upstream.enqueue(new MockResponse.Builder().body(ANSWER).build());

            assertEquals(200, gateway.chat(chat("first", false)).statusCode());
            HttpResponse<String> second = gateway.chat(chat("second", false));

            assertEquals(200, second.statusCode(), second.body());
            assertEquals(ANSWER, second.body());
            RecordedRequest first = upstream.takeRequest(5, TimeUnit.SECONDS);
            RecordedRequest retried = upstream.takeRequest(5, TimeUnit.SECONDS);
            assertTrue(first.getBody().utf8().contains("first"), first.getBody().utf8());
            assertTrue(retried.getBody().utf8().contains("second"), retried.getBody().utf8());
            assertEquals(1, retried.getConnectionIndex(), "the second request must go on a new connection");
            assertEquals(0, retried.getExchangeIndex());
            assertEquals(2, upstream.getRequestCount());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"gateway", "helidon"})
    void aTimeoutOnAReusedConnectionIsNotRetried(String pool) throws Exception {
        try (MockWebServer upstream = startMockUpstream(); TestGateway gateway = startGateway(upstream.url("/v1")
                .toString(), Map.of("gateway.timeouts.first-byte", "300ms", POOL, pool))) {
            upstream.enqueue(new MockResponse.Builder().body(ANSWER).build());
            upstream.enqueue(new MockResponse.Builder().body(ANSWER).headersDelay(3, TimeUnit.SECONDS).build());
            upstream.enqueue(new MockResponse.Builder().body(ANSWER).build());

            assertEquals(200, gateway.chat(chat("warm-up", false)).statusCode());
            assertEquals(504, gateway.chat(chat("too slow", false)).statusCode());
            assertEquals(200, gateway.chat(chat("after", false)).statusCode());

            // A retry of the slow request would have reached the upstream twice and taken the third answer.
            assertEquals(0, upstream.takeRequest(5, TimeUnit.SECONDS).getConnectionIndex());
            RecordedRequest slow = upstream.takeRequest(5, TimeUnit.SECONDS);
            assertTrue(slow.getBody().utf8().contains("too slow"), slow.getBody().utf8());
            assertEquals(0, slow.getConnectionIndex(), "the slow request must have reused the first connection");
            RecordedRequest after = upstream.takeRequest(5, TimeUnit.SECONDS);
            assertTrue(after.getBody().utf8().contains("after"), after.getBody().utf8());
            assertEquals(3, upstream.getRequestCount());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"gateway", "helidon"})
    void aConnectionWhoseCallerLeftMidStreamIsClosedAndNotReused(String pool) throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream();
             TestGateway gateway = startGateway(upstream.baseUrl(), Map.of(POOL, pool))) {
            try (Socket caller = new Socket("127.0.0.1", gateway.gateway().port())) {
                RawCaller.sendChat(caller, chat("Hi", true));
                Exchange left = upstream.take(WAIT);
                left.startStream(200, "text/event-stream");
                left.send(EVENT);
                RawCaller.readUntil(caller.getInputStream(), "data: ");
                caller.close();
                assertTrue(left.keepStreamingUntilClosed(EVENT, WAIT),
                        "the gateway must close the abandoned upstream connection");
            }

            // Each connection the upstream accepts carries exactly one exchange here: a reused one would stall.
            CompletableFuture<HttpResponse<String>> next = streamAsync(gateway, "next");
            Exchange exchange = upstream.take(WAIT);
            assertTrue(exchange.body().contains("next"), exchange.body());
            exchange.startStream(200, "text/event-stream");
            exchange.send(EVENT);
            exchange.end();
            assertEquals(EVENT, next.get(WAIT.toSeconds(), TimeUnit.SECONDS).body());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"gateway", "helidon"})
    void shutdownClosesTheIdleUpstreamConnections(String pool) throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream()) {
            Exchange exchange;
            try (TestGateway gateway = startGateway(upstream.baseUrl(), Map.of(POOL, pool))) {
                CompletableFuture<HttpResponse<String>> response = streamAsync(gateway, "Hi");
                exchange = upstream.take(WAIT);
                exchange.startStream(200, "text/event-stream");
                exchange.send(EVENT);
                exchange.end();
                assertEquals(EVENT, response.get(WAIT.toSeconds(), TimeUnit.SECONDS).body());
            }
            assertTrue(exchange.awaitClosedByPeer(WAIT), "the gateway left an upstream connection open after closing");
        }
    }

    private static MockWebServer startMockUpstream() throws IOException {
        MockWebServer upstream = new MockWebServer();
        upstream.start(InetAddress.getLoopbackAddress(), 0);
        return upstream;
    }

    private static TestGateway startGateway(String baseUrl, Map<String, String> extraConfig) {
        Map<String, String> config = new HashMap<>(extraConfig);
        config.put("providers.openai.base-url", baseUrl);
        return TestGateway.start(config, Map.of("OPENAI_API_KEY", "sk-upstream-openai"));
    }

    private static String chat(String content, boolean stream) {
        return "{\"model\":\"openai/gpt-5\",\"stream\":" + stream + ",\"messages\":[{\"role\":\"user\",\"content\":\""
                + content + "\"}]}";
    }

    private static CompletableFuture<HttpResponse<String>> streamAsync(TestGateway gateway, String content) {
        return gateway.client().sendAsync(gateway.request("/api/v1/chat/completions")
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(chat(content, true)))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
