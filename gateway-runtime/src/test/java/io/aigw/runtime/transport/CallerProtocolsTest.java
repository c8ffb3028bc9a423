package io.aigw.runtime.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.testing.RawCaller;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import io.aigw.runtime.testing.TestGateway;
import io.aigw.runtime.transport.TransportOptions.Choice;
import io.helidon.config.Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.http2.Http2ConnectionSelector;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * With {@code gateway.http2}, callers may speak HTTP/2 over plain TCP (h2c), as clients holding many
 * streams open do: each stream is relayed as over HTTP/1.1, and one connection carries them all.
 */
public final class CallerProtocolsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String STREAM_REQUEST = "{\"model\":\"openai/gpt-5\",\"stream\":true,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    private static final String FIRST = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\","
            + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hel\"}}]}\n\n";
    private static final String DONE = "data: [DONE]\n\n";

    /** What an HTTP/2 client with prior knowledge sends first: the preface, then its (empty) SETTINGS. */
    private static final byte[] PREFACE_AND_EMPTY_SETTINGS = concat(
            "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII),
            new byte[] {0, 0, 0, 0x4, 0, 0, 0, 0, 0});

    /** A request line without a version, long enough for HTTP/2's selector to rule it out too. */
    private static final byte[] VERSIONLESS_REQUEST = "GET /api/v1/models?version=none\r\n\r\n"
            .getBytes(StandardCharsets.US_ASCII);

    private final HttpClient http2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
    private ScriptedUpstream upstream;
    private TestGateway gateway;

    @BeforeEach
    void start() throws IOException {
        upstream = new ScriptedUpstream();
        gateway = TestGateway.start(Map.of(
                        "providers.openai.base-url", upstream.baseUrl(),
                        "gateway.max-body-size", "1024",
                        "gateway.http2", "true",
                        "gateway.protocols.http_1_1.max-prologue-length", "256"),
                Map.of("OPENAI_API_KEY", "sk-upstream-openai"));
    }

    @AfterEach
    void stop() throws IOException {
        http2.close();
        gateway.close();
        upstream.close();
    }

    @Test
    void twoStreamsOnOneHttp2ConnectionAreEachRelayedEventByEvent() throws Exception {
        upgradeToHttp2();

        CompletableFuture<HttpResponse<InputStream>> first = http2.sendAsync(chat(STREAM_REQUEST),
                HttpResponse.BodyHandlers.ofInputStream());
        Exchange firstUpstream = upstream.take(WAIT);
        CompletableFuture<HttpResponse<InputStream>> second = http2.sendAsync(chat(STREAM_REQUEST),
                HttpResponse.BodyHandlers.ofInputStream());
        Exchange secondUpstream = upstream.take(WAIT);
        firstUpstream.startStream(200, "text/event-stream");
        secondUpstream.startStream(200, "text/event-stream");
        firstUpstream.send(FIRST);
        secondUpstream.send(FIRST);

        // Both upstreams hold the rest until their first events have reached the caller.
        HttpResponse<InputStream> firstCaller = first.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        HttpResponse<InputStream> secondCaller = second.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        for (HttpResponse<InputStream> caller : List.of(firstCaller, secondCaller)) {
            assertEquals(HttpClient.Version.HTTP_2, caller.version());
            assertEquals(200, caller.statusCode());
            assertEquals("text/event-stream", caller.headers().firstValue("content-type").orElseThrow());
            assertEquals("openai", caller.headers().firstValue("x-gateway-provider").orElseThrow());
            assertEquals(FIRST, new String(caller.body().readNBytes(FIRST.length()), StandardCharsets.UTF_8));
        }

        for (Exchange exchange : List.of(firstUpstream, secondUpstream)) {
            exchange.send(DONE);
            exchange.end();
            assertEquals("POST /v1/chat/completions HTTP/1.1", exchange.requestLine());
            assertEquals("Bearer sk-upstream-openai", exchange.header("Authorization"));
            assertTrue(exchange.body().contains("\"model\":\"gpt-5\""), exchange.body());
        }
        assertEquals(DONE, new String(firstCaller.body().readAllBytes(), StandardCharsets.UTF_8));
        assertEquals(DONE, new String(secondCaller.body().readAllBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void closingTheConnectionCancelsTheUpstreamCallOfEachStreamOnIt() throws Exception {
        upgradeToHttp2();
        CompletableFuture<HttpResponse<InputStream>> response = http2.sendAsync(chat(STREAM_REQUEST),
                HttpResponse.BodyHandlers.ofInputStream());
        Exchange exchange = upstream.take(WAIT);
        exchange.startStream(200, "text/event-stream");
        exchange.send(FIRST);
        InputStream events = response.get(WAIT.toSeconds(), TimeUnit.SECONDS).body();
        assertEquals(FIRST, new String(events.readNBytes(FIRST.length()), StandardCharsets.UTF_8));

        http2.shutdownNow();

        assertTrue(exchange.keepStreamingUntilClosed(FIRST, WAIT),
                "the gateway must close the upstream connection of a stream whose caller left");
    }

    @Test
    void withoutTheSettingACallerAskingForHttp2IsAnsweredOverHttp11() throws Exception {
        try (TestGateway http11Only = startWithoutHttp2()) {
            HttpResponse<String> models = http2.send(HttpRequest.newBuilder(http11Only.uri("/api/v1/models"))
                    .header("Authorization", "Bearer " + TestGateway.KEY).build(), HttpResponse.BodyHandlers.ofString());

            assertEquals(200, models.statusCode(), models.body());
            assertEquals(HttpClient.Version.HTTP_1_1, models.version());
        }
    }

    @Test
    void aBodyOverTheLimitIsRefusedWithoutSpoilingTheConnectionsOtherStreams() throws Exception {
        upgradeToHttp2();
        String oversized = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\""
                + "x".repeat(4096) + "\"}]}";

        HttpResponse<String> refused = http2.send(chat(oversized), HttpResponse.BodyHandlers.ofString());

        assertEquals(HttpClient.Version.HTTP_2, refused.version());
        assertEquals(413, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("\"code\":\"request_too_large\""), refused.body());

        CompletableFuture<HttpResponse<String>> next = http2.sendAsync(chat(STREAM_REQUEST),
                HttpResponse.BodyHandlers.ofString());
        Exchange exchange = upstream.take(WAIT);
        // The refused request never reached the upstream: the first it received is this one.
        assertTrue(exchange.body().contains("\"stream\":true"), exchange.body());
        exchange.startStream(200, "text/event-stream");
        exchange.send(FIRST + DONE);
        exchange.end();
        HttpResponse<String> answered = next.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(HttpClient.Version.HTTP_2, answered.version());
        assertEquals(FIRST + DONE, answered.body());
    }

    @Test
    void httpOneSettingsUnderGatewayProtocolsApply() throws Exception {
        HttpResponse<String> tooLong = http2.send(gateway.request("/api/v1/models?q=" + "x".repeat(300)).build(),
                HttpResponse.BodyHandlers.ofString());

        assertEquals(414, tooLong.statusCode(), tooLong.body());
    }

    @Test
    void helidonsOwnProtocolSettingsAreRefusedNamingWhereTheyBelong() {
        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> TestGateway.start(
                Map.of("server.protocols.http_2.max-concurrent-streams", "100"), Map.of()));

        assertTrue(refused.getMessage().contains("gateway.protocols.http_2"), refused.getMessage());
    }

    @Test
    void aConnectionOpeningWithHttp2sPrefaceIsAnsweredInHttp2() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", gateway.gateway().port())) {
            socket.setSoTimeout((int) WAIT.toMillis());
            socket.getOutputStream().write(PREFACE_AND_EMPTY_SETTINGS);

            byte[] frameHeader = socket.getInputStream().readNBytes(9);
            assertEquals(9, frameHeader.length);
            assertEquals(0x4, frameHeader[3], "the server's first frame is its SETTINGS");
        }
    }

    @Test
    void withoutTheSettingHttp2sPrefaceIsAnsweredByHttp11() throws Exception {
        try (TestGateway http11Only = startWithoutHttp2();
             Socket socket = new Socket("127.0.0.1", http11Only.gateway().port())) {
            socket.setSoTimeout((int) WAIT.toMillis());
            socket.getOutputStream().write(PREFACE_AND_EMPTY_SETTINGS);

            String answer = new String(socket.getInputStream().readNBytes(12), StandardCharsets.US_ASCII);
            assertTrue(answer.startsWith("HTTP/1.1 4") || answer.startsWith("HTTP/1.1 5"), answer);
        }
    }

    @Test
    void aRequestLineHttp11DoesNotRecogniseGetsHttp11sAnswerWithHttp2On() throws Exception {
        try (Socket socket = new Socket("127.0.0.1", gateway.gateway().port())) {
            socket.setSoTimeout((int) WAIT.toMillis());
            socket.getOutputStream().write(VERSIONLESS_REQUEST);

            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(answer.startsWith("HTTP/1.1 400"), answer);
            assertTrue(answer.contains("\"type\":\"invalid_request_error\""), answer);
        }
    }

    @Test
    void withHelidonsProtocolSelectionARequestLineHttp11DoesNotRecogniseIsClosedUnanswered() throws Exception {
        try (TestGateway helidons = TestGateway.start(Map.of("providers.openai.base-url", upstream.baseUrl(),
                "gateway.http2", "true", "gateway.transport.protocol-selection", "helidon"), Map.of());
             Socket socket = new Socket("127.0.0.1", helidons.gateway().port())) {
            socket.setSoTimeout((int) WAIT.toMillis());
            socket.getOutputStream().write(VERSIONLESS_REQUEST);

            assertEquals(-1, socket.getInputStream().read(), "Helidon now answers a connection no selector claims:"
                    + " gateway.transport.protocol-selection's workaround may go (see the package doc)");
        }
    }

    @Test
    void withHelidonsSelectionAndReaderTheListenerHasHelidonsOwnSelectorsBehindTheGuard() {
        List<ServerConnectionSelector> selectors = CallerProtocols.selectors(Config.empty(), true,
                new TransportOptions(false, Choice.HELIDON, Choice.GATEWAY, false), CallerTimeouts.DEFAULTS, RESERVE);

        assertEquals(2, selectors.size());
        assertInstanceOf(Http1ConnectionSelector.class, guarded(selectors.get(0)));
        assertInstanceOf(Http2ConnectionSelector.class, guarded(selectors.get(1)));
        assertInstanceOf(Http1ConnectionSelector.class,
                guarded(CallerProtocols.selectors(Config.empty(), false, new TransportOptions(false, Choice.GATEWAY,
                        Choice.GATEWAY, false), CallerTimeouts.DEFAULTS, RESERVE).getFirst()));
    }

    @Test
    void byDefaultOneSelectorClaimsEveryConnectionAndReadsItThroughTheRestartingReader() {
        List<ServerConnectionSelector> selectors = CallerProtocols.selectors(Config.empty(), true,
                TransportOptions.DEFAULTS, CallerTimeouts.DEFAULTS, RESERVE);

        assertEquals(1, selectors.size());
        assertInstanceOf(WatchableSelector.class, selectors.getFirst());
        assertInstanceOf(GuardedSelector.class, ((WatchableSelector) selectors.getFirst()).selector);
        assertInstanceOf(RestartingReaderSelector.class, guarded(CallerProtocols.selectors(Config.empty(), true,
                new TransportOptions(true, Choice.GATEWAY, Choice.GATEWAY, false), CallerTimeouts.DEFAULTS, RESERVE)
                .getFirst()));
        assertEquals(0, selectors.getFirst().bytesToIdentifyConnection());
        assertEquals(Set.of("http/1.1", "h2"), selectors.getFirst().supportedApplicationProtocols());
    }

    private static final CallerReserve RESERVE = new CallerReserve(100);

    /** The selector a {@link GuardedSelector} guards. */
    private static ServerConnectionSelector guarded(ServerConnectionSelector selector) {
        return ((GuardedSelector) selector).selector;
    }

    @Test
    void withHelidonsReaderCallersAreServedOnKeptAliveConnections() throws Exception {
        try (TestGateway helidons = TestGateway.start(Map.of("gateway.transport.restarting-reader", "false"),
                Map.of());
             Socket socket = new Socket("127.0.0.1", helidons.gateway().port())) {
            socket.setSoTimeout((int) WAIT.toMillis());
            for (int i = 0; i < 3; i++) {
                RawCaller.sendGet(socket, "/api/v1/models");
                RawCaller.readUntil(socket.getInputStream(), "HTTP/1.1 200 OK");
            }
        }
    }

    /** A gateway on the same upstream with gateway.http2 left at its default, off. */
    private TestGateway startWithoutHttp2() {
        return TestGateway.start(Map.of("providers.openai.base-url", upstream.baseUrl()),
                Map.of("OPENAI_API_KEY", "sk-upstream-openai"));
    }

    /** The JDK's client asks for h2c on its first request and then sends every later one over HTTP/2. */
    private void upgradeToHttp2() throws Exception {
        HttpResponse<String> models = http2.send(gateway.request("/api/v1/models").build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, models.statusCode(), models.body());
        assertEquals(HttpClient.Version.HTTP_2, models.version());
    }

    private HttpRequest chat(String body) {
        return gateway.request("/api/v1/chat/completions")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
