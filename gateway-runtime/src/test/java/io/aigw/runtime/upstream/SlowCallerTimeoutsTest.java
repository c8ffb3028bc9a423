package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.CallRecords;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.RawCaller;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import jakarta.json.JsonObject;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The upstream and the caller are timed apart, as nginx times them: {@code gateway.timeouts.idle}
 * bounds how long the upstream is silent, never how long the gateway waits to write to a caller
 * who reads slowly; {@code gateway.timeouts.caller-send} bounds that wait, and a caller that takes
 * nothing for so long is cut, its upstream call ended, and the call recorded 499.
 */
final class SlowCallerTimeoutsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String REQUEST = "{\"model\":\"openai/gpt-5\",\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true},\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    /** Far more than the socket buffers between the gateway and a caller can hold, so its writes wait. */
    private static final int EVENTS = 40_000;
    private static final int ESTIMATED = 3;

    @RegisterExtension
    final GatewayInFront<ScriptedUpstream> front = GatewayInFront.scripted().withAccessLog()
            .config("gateway.timeouts.idle", "1s")
            .config("gateway.timeouts.caller-send", "20s");

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aCallerThatPausesLongerThanTheUpstreamIdleTimeoutGetsTheWholeStream() throws Exception {
        String stream = events() + "data: [DONE]\n\n";
        try (Socket caller = caller()) {
            Exchange exchange = front.upstream().take(WAIT);
            Thread upstream = Thread.ofVirtual().start(() -> sendPromptly(exchange, stream));

            // Reads the head and the first events, then pauses three times the upstream's idle timeout.
            InputStream pausing = new PausingInput(caller.getInputStream(), 4096, Duration.ofSeconds(3));
            RawCaller.Answer answer = RawCaller.readChunkedToItsEnd(pausing);
            upstream.join();

            assertEquals(200, answer.status());
            assertEquals(stream.length(), answer.body().length());
            assertEquals(stream, answer.body());
            assertEquals(200, CallRecords.accessLogLines(front.accessLog(), 1).getFirst().getInt("status"));
        }
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aCallerThatStopsReadingIsCutAfterTheSendTimeoutItsUpstreamCallEndedAndRecorded499() throws Exception {
        // Only the caller's bound can end this stream: the upstream never goes quiet for its idle timeout.
        front.restart(Map.of("gateway.timeouts.caller-send", "1s", "gateway.timeouts.idle", "60s"));
        try (Socket caller = caller()) {
            Exchange exchange = front.upstream().take(WAIT);
            exchange.startStream(200, "text/event-stream");
            exchange.send("data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}],\"usage\":null}\n\n");
            RawCaller.readUntil(caller.getInputStream(), "\r\n\r\n");

            // The upstream streams on while the caller reads nothing more.
            assertTrue(exchange.keepWritingUntilClosed(chunk(events()), WAIT),
                    "the gateway kept the upstream call of a caller that took nothing for 1 s");

            JsonObject line = CallRecords.accessLogLines(front.accessLog(), 1).getFirst();
            assertEquals(499, line.getInt("status"));
            assertEquals("estimated", line.getString("cost_basis"));
            assertEquals(List.of(499), CallRecords.usageStatuses(front.gateway(), 1));
            assertTrue(readToItsEnd(caller), "the caller's connection is still open");
        }
    }

    private Socket caller() throws IOException {
        Socket caller = new Socket();
        // A small window, set before connecting: the caller's side holds little of what it does not read.
        caller.setReceiveBufferSize(8 * 1024);
        caller.connect(new InetSocketAddress("127.0.0.1", front.gateway().gateway().port()));
        caller.setSoTimeout((int) WAIT.toMillis());
        RawCaller.sendChat(caller, REQUEST);
        return caller;
    }

    private static String events() {
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < EVENTS; i++) {
            all.append("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,")
                    .append("\"delta\":{\"content\":\"").append(String.format("%08d", i)).append(' ')
                    .append("x".repeat(220)).append("\"}}],\"usage\":null}\n\n");
        }
        return all.toString();
    }

    /** {@code text} as one chunk of a chunked body, written as it is. */
    private static String chunk(String text) {
        return Integer.toHexString(text.length()) + "\r\n" + text + "\r\n";
    }

    /** Sends {@code stream} in 32 KB chunks as fast as the gateway takes them, then ends it. */
    private static void sendPromptly(Exchange exchange, String stream) {
        try {
            exchange.startStream(200, "text/event-stream");
            for (int at = 0; at < stream.length(); at += 32 * 1024) {
                exchange.send(stream.substring(at, Math.min(stream.length(), at + 32 * 1024)));
            }
            exchange.end();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads what the caller's socket still brings (sent before the cut) to its end; false if it stays open. */
    private static boolean readToItsEnd(Socket caller) {
        byte[] buffer = new byte[64 * 1024];
        try {
            InputStream in = caller.getInputStream();
            while (in.read(buffer) >= 0) {
                // Dropped: bytes the gateway sent before it cut the connection.
            }
            return true;
        } catch (java.net.SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            return true;
        }
    }

    /** A caller that reads {@code before} bytes, then pauses once for {@code pause}, then reads on. */
    private static final class PausingInput extends FilterInputStream {
        private final Duration pause;
        private long beforePause;

        PausingInput(InputStream in, long before, Duration pause) {
            super(in);
            this.beforePause = before;
            this.pause = pause;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            if (beforePause == 0) {
                beforePause = -1;
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException(e);
                }
            }
            int n = super.read(buffer, offset, beforePause > 0 ? (int) Math.min(length, beforePause) : length);
            if (n > 0 && beforePause > 0) {
                beforePause -= n;
            }
            return n;
        }
    }
}
