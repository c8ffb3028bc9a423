package io.aigw.runtime.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.config.Settings;
import io.aigw.runtime.testing.RawCaller;
import io.aigw.runtime.testing.RawCaller.Answer;
import io.aigw.runtime.testing.TestGateway;
import io.helidon.config.Config;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The caller-side timeouts ({@code gateway.timeouts.caller-*}), set to one second here: a
 * connection that stalls in any phase of a request is closed, and one that makes progress, or
 * waits on the gateway's own answer, is not.
 */
final class CallerTimeoutsTest {
    /** Far beyond the timeouts: a connection still open then was never going to be closed. */
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String VALID = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    private static final String AUTH = "Authorization: Bearer " + TestGateway.KEY + "\r\n";
    private static final String MODELS = "GET /api/v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n" + AUTH + "\r\n";
    private static final String ANSWER = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"choices\":[]}";
    private static MockWebServer upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws IOException {
        upstream = new MockWebServer();
        upstream.start();
        gateway = TestGateway.start(Map.of(
                "gateway.timeouts.caller-headers", "1s",
                "gateway.timeouts.caller-body", "1s",
                "gateway.timeouts.caller-keep-alive", "1s",
                "providers.openai.base-url", upstream.url("/v1").toString()), Map.of("OPENAI_API_KEY", "sk-up"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void aConnectionThatSendsNothingIsClosed() throws Exception {
        try (Socket caller = connect()) {
            assertTrue(RawCaller.ended(caller));
        }
    }

    @Test
    void aConnectionThatStopsInTheMiddleOfItsHeadersIsClosed() throws Exception {
        try (Socket caller = connect()) {
            RawCaller.write(caller, bytes("GET /api/v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthoriz"));
            assertTrue(RawCaller.ended(caller));
        }
    }

    @Test
    void aConnectionThatDripsItsHeadersIsClosedOnceTheirTimeIsUp() throws Exception {
        try (Socket caller = connect()) {
            RawCaller.write(caller, bytes("GET /api/v1/models HTTP/1.1\r\n"));
            // A header line well within each read's wait, but the headers as a whole take too long.
            boolean closed = false;
            for (int line = 0; line < 40 && !closed; line++) {
                Thread.sleep(100);
                try {
                    RawCaller.write(caller, bytes("X-Drip-" + line + ": x\r\n"));
                } catch (IOException e) {
                    closed = true;
                }
            }
            assertTrue(closed || RawCaller.ended(caller));
        }
    }

    @Test
    void aConnectionThatStopsInTheMiddleOfItsBodyIsClosed() throws Exception {
        int before = upstream.getRequestCount();
        try (Socket caller = connect()) {
            RawCaller.write(caller, bytes(post(VALID.length()) + VALID.substring(0, 10)));
            assertTrue(RawCaller.ended(caller));
        }
        assertEquals(before, upstream.getRequestCount());
    }

    @Test
    void aConnectionIdleAfterItsAnswerIsClosed() throws Exception {
        try (Socket caller = connect()) {
            RawCaller.write(caller, bytes(MODELS));
            assertEquals(200, RawCaller.readAnswer(caller.getInputStream()).status());
            assertTrue(RawCaller.ended(caller));
        }
    }

    @Test
    void aSlowBodyThatKeepsComingIsRead() throws Exception {
        upstream.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/json").body(ANSWER).build());
        try (Socket caller = connect()) {
            RawCaller.write(caller, bytes(post(VALID.length())));
            // Each piece comes well within the body timeout; the whole body takes longer than it.
            for (int at = 0; at < VALID.length(); at += 5) {
                Thread.sleep(100);
                RawCaller.write(caller, bytes(VALID.substring(at, Math.min(VALID.length(), at + 5))));
            }
            Answer answer = RawCaller.readAnswer(caller.getInputStream());
            assertEquals(200, answer.status(), answer.body());
        }
    }

    @Test
    void aCallerWaitingLongerThanEveryTimeoutForItsAnswerGetsIt() throws Exception {
        upstream.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/json").body(ANSWER)
                .headersDelay(3, TimeUnit.SECONDS).build());
        try (Socket caller = connect()) {
            RawCaller.write(caller, bytes(post(VALID.length()) + VALID));
            Answer answer = RawCaller.readAnswer(caller.getInputStream());
            assertEquals(200, answer.status(), answer.body());
            assertEquals(ANSWER, answer.body());
        }
    }

    @Test
    void theSendTimeoutIsNginxsMinuteUnlessSet() {
        assertEquals(Duration.ofSeconds(60), CallerTimeouts.from(new Settings(Config.empty(), Map.of())).send());
        assertEquals(Duration.ofSeconds(5), CallerTimeouts.from(new Settings(Config.empty(),
                Map.of("GATEWAY_TIMEOUTS_CALLER_SEND", "5s"))).send());
    }

    @Test
    void overdueConnectionsAreLookedForATenthOfTheShortestTimeoutApartWithinTenMillisecondsAndOneSecond() {
        assertEquals(TimeUnit.SECONDS.toNanos(1), CallerTimeouts.DEFAULTS.tickNanos());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(200), timeouts(Duration.ofSeconds(2)).tickNanos());
        assertEquals(TimeUnit.MILLISECONDS.toNanos(10), timeouts(Duration.ofMillis(20)).tickNanos());
        // A timeout of centuries, past what a long holds in nanoseconds, still gives a tick.
        assertEquals(TimeUnit.SECONDS.toNanos(1), timeouts(Duration.ofDays(365L * 1000)).tickNanos());
    }

    /** Timeouts whose shortest is the send timeout, {@code shortest}; the others are a second longer. */
    private static CallerTimeouts timeouts(Duration shortest) {
        Duration longer = shortest.plusSeconds(1);
        return new CallerTimeouts(longer, longer, longer, 500, Duration.ofSeconds(20), shortest);
    }

    private static String post(int length) {
        return "POST /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n" + AUTH
                + "Content-Type: application/json\r\nContent-Length: " + length + "\r\n\r\n";
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", gateway.gateway().port());
        socket.setSoTimeout((int) WAIT.toMillis());
        return socket;
    }
}
