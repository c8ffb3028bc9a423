package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.CallRecords;
import io.aigw.runtime.testing.RawCaller;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import io.aigw.runtime.testing.TestGateway;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A caller that leaves ends its upstream call at once, whatever the call is waiting for: a plain
 * answer's headers or body, or a stream's next event. The call is recorded as 499, as nginx logs a
 * client that closed its connection; a caller that stays is served on the same connection as before.
 */
public final class CallerLeavesTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String PLAIN = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    private static final String STREAM = "{\"model\":\"openai/gpt-5\",\"stream\":true,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    private static final String EVENT = "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n";
    private static final String ANSWER = "{\"object\":\"chat.completion\",\"choices\":[]}";

    @TempDir
    Path folder;
    private ScriptedUpstream upstream;
    private TestGateway gateway;
    private Map<Integer, Double> countedBefore;

    /** The ways a caller's connection is read: each must notice a caller leaving. */
    static Stream<Arguments> transports() {
        return Stream.of(
                Arguments.of(Named.of("the gateway's reader", Map.of())),
                Arguments.of(Named.of("Helidon's reader", Map.of("gateway.transport.restarting-reader", "false"))),
                Arguments.of(Named.of("HTTP/2 on beside HTTP/1.1", Map.of("gateway.http2", "true"))));
    }

    @BeforeEach
    void startUpstream() throws IOException {
        upstream = new ScriptedUpstream();
    }

    private void startGateway(Map<String, String> transport) {
        Map<String, String> config = new HashMap<>(transport);
        // Timeouts far beyond the test's wait: only the caller's leaving can end these calls in time.
        config.putAll(Map.of("providers.openai.base-url", upstream.baseUrl(),
                "gateway.timeouts.first-byte", "120s",
                "gateway.timeouts.idle", "120s",
                "gateway.access-log", accessLog().toString()));
        gateway = TestGateway.start(config, Map.of("OPENAI_API_KEY", "sk-upstream-openai"));
        countedBefore = CallRecords.requestsCounted(gateway);
    }

    @AfterEach
    void stop() throws IOException {
        if (gateway != null) {
            gateway.close();
        }
        upstream.close();
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aCallerThatLeavesBeforeThePlainAnswerCancelsTheUpstreamCall(Map<String, String> transport) throws Exception {
        startGateway(transport);
        Exchange exchange;
        try (Socket caller = new Socket("127.0.0.1", gateway.gateway().port())) {
            RawCaller.sendChat(caller, PLAIN);
            exchange = upstream.take(WAIT);
        }

        assertTrue(exchange.awaitClosedByPeer(WAIT), "the gateway must close the upstream call of a caller who left");
        assertRecordedAsLeft();
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aCallerThatLeavesWhileThePlainAnswerArrivesCancelsTheUpstreamCall(Map<String, String> transport)
            throws Exception {
        startGateway(transport);
        Exchange exchange;
        try (Socket caller = new Socket("127.0.0.1", gateway.gateway().port())) {
            RawCaller.sendChat(caller, PLAIN);
            exchange = upstream.take(WAIT);
            exchange.startAnswer(200, "application/json", 1_000_000);
            exchange.write("{\"choices\":[");
        }

        assertTrue(exchange.keepWritingUntilClosed("{},", WAIT), "the gateway must close the upstream call");
        assertRecordedAsLeft();
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aCallerThatLeavesASilentStreamCancelsTheUpstreamCall(Map<String, String> transport) throws Exception {
        startGateway(transport);
        Exchange exchange;
        try (Socket caller = new Socket("127.0.0.1", gateway.gateway().port())) {
            RawCaller.sendChat(caller, STREAM);
            exchange = upstream.take(WAIT);
            exchange.startStream(200, "text/event-stream");
            exchange.send(EVENT);
            RawCaller.readUntil(caller.getInputStream(), "data: ");
        }

        // The upstream sends nothing more: no write to the caller can fail and show that it left.
        assertTrue(exchange.awaitClosedByPeer(WAIT), "the gateway must close the upstream call of a caller who left");
        assertRecordedAsLeft();
    }

    @ParameterizedTest
    @MethodSource("transports")
    void aCallerThatStaysIsAnsweredAndItsConnectionServesTheNextRequests(Map<String, String> transport)
            throws Exception {
        startGateway(transport);
        try (Socket caller = new Socket("127.0.0.1", gateway.gateway().port())) {
            InputStream in = caller.getInputStream();
            RawCaller.sendChat(caller, PLAIN);
            Exchange first = upstream.take(WAIT);
            // Long enough for the gateway to watch the caller: its next request then comes through the read ahead.
            Thread.sleep(300);
            first.startAnswer(200, "application/json", ANSWER.length());
            first.write(ANSWER);
            assertEquals(ANSWER, RawCaller.readAnswer(in).body());

            // Two requests sent at once: the second arrives while the first waits on its upstream.
            RawCaller.sendChat(caller, PLAIN);
            RawCaller.sendChat(caller, STREAM);
            Exchange second = upstream.take(WAIT);
            Thread.sleep(300);
            second.startAnswer(200, "application/json", ANSWER.length());
            second.write(ANSWER);
            assertEquals(ANSWER, RawCaller.readAnswer(in).body());
            Exchange third = upstream.take(WAIT);
            third.startStream(200, "text/event-stream");
            third.send(EVENT + "data: [DONE]\n\n");
            third.end();
            assertEquals(EVENT + "data: [DONE]\n\n", RawCaller.readAnswer(in).body());
        }
        assertEquals(List.of(200, 200, 200), CallRecords.usageStatuses(gateway, 3));
    }

    @Test
    void onHelidonsPathACallerThatLeavesIsNotNoticedWhileItsRequestWaits() throws Exception {
        startGateway(Map.of("gateway.transport.caller-watch", "false"));
        Exchange exchange;
        try (Socket caller = new Socket("127.0.0.1", gateway.gateway().port())) {
            RawCaller.sendChat(caller, PLAIN);
            exchange = upstream.take(WAIT);
        }

        assertFalse(exchange.awaitClosedByPeer(Duration.ofSeconds(2)), "Helidon now notices a caller that hangs"
                + " up while its handler works: gateway.transport.caller-watch's workaround may go (see the package doc)");
        // The call ends only once the upstream has answered.
        exchange.startAnswer(200, "application/json", ANSWER.length());
        exchange.write(ANSWER);
        assertEquals(1, CallRecords.usageStatuses(gateway, 1).size());
    }

    private void assertRecordedAsLeft() {
        assertEquals(List.of(499), CallRecords.usageStatuses(gateway, 1));
        assertEquals(499, CallRecords.accessLogLines(accessLog(), 1).getFirst().getInt("status"));
        assertEquals(1, CallRecords.countedSince(countedBefore, CallRecords.requestsCounted(gateway), 499));
    }

    private Path accessLog() {
        return folder.resolve("access.log");
    }
}
