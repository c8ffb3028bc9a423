package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aigw.runtime.testing.RawCaller;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import io.aigw.runtime.testing.TestGateway;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A long stream reaches a caller that reads slowly byte for byte: the caller's socket fills, the
 * gateway's writes wait, and nothing is lost or reordered. Helidon 4.4's socket writer lost bytes
 * here (its SmartSocketWriter, fixed in Helidon 4.5.0 by commit bcfebafc4d).
 */
final class SlowReaderStreamTest {
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int EVENTS = 40_000;
    private static final int PAUSE_EVERY = 64 * 1024;
    private static final String REQUEST = "{\"model\":\"openai/gpt-5\",\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true},\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";

    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void aThirteenMegabyteStreamReachesAReaderThatPausesEvery64KilobytesIntact() throws Exception {
        StringBuilder all = new StringBuilder();
        for (int i = 0; i < EVENTS; i++) {
            all.append("data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,")
                    .append("\"delta\":{\"content\":\"").append(String.format("%08d", i)).append(' ')
                    .append("x".repeat(220)).append("\"}}]}\n\n");
        }
        all.append("data: [DONE]\n\n");
        byte[] expected = all.toString().getBytes(StandardCharsets.UTF_8);

        try (ScriptedUpstream upstream = new ScriptedUpstream();
             TestGateway gateway = TestGateway.start(Map.of("providers.openai.base-url", upstream.baseUrl()),
                     Map.of("OPENAI_API_KEY", "sk-upstream-openai"));
             Socket caller = new Socket("127.0.0.1", gateway.gateway().port())) {
            caller.setSoTimeout((int) WAIT.toMillis());
            RawCaller.sendChat(caller, REQUEST);
            Exchange exchange = upstream.take(WAIT);
            Thread feeder = Thread.ofVirtual().start(() -> {
                try {
                    exchange.startStream(200, "text/event-stream");
                    for (int at = 0; at < all.length(); at += 32 * 1024) {
                        exchange.send(all.substring(at, Math.min(all.length(), at + 32 * 1024)));
                    }
                    exchange.end();
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });

            byte[] received = readThrottled(caller.getInputStream());
            feeder.join();
            assertEquals(expected.length, received.length);
            assertArrayEquals(expected, received);
        }
    }

    /** Reads one chunked answer's body, pausing 10 ms after each 64 KB read off the socket. */
    private static byte[] readThrottled(InputStream socket) throws Exception {
        InputStream in = new ThrottledInput(socket);
        String status = line(in);
        assertEquals("HTTP/1.1 200 OK", status);
        boolean chunked = false;
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            chunked |= header.equalsIgnoreCase("Transfer-Encoding: chunked");
        }
        assertEquals(true, chunked);
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int size = Integer.parseInt(line(in), 16); size > 0; size = Integer.parseInt(line(in), 16)) {
            byte[] chunk = in.readNBytes(size);
            assertEquals(size, chunk.length, "the answer ended inside a chunk");
            body.write(chunk);
            assertEquals("", line(in), "a chunk's data did not end where its size said");
        }
        return body.toByteArray();
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("the answer ended in the middle of a line: " + line);
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.US_ASCII);
    }

    /** A reader that pauses 10 ms after each 64 KB, as a slow client's socket drains. */
    private static final class ThrottledInput extends InputStream {
        private final InputStream in;
        private final byte[] buffer = new byte[8192];
        private int position;
        private int limit;
        private long sincePause;

        ThrottledInput(InputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            if (position == limit) {
                if (sincePause >= PAUSE_EVERY) {
                    sincePause = 0;
                    try {
                        Thread.sleep(10);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException(e);
                    }
                }
                limit = in.read(buffer);
                position = 0;
                if (limit <= 0) {
                    limit = 0;
                    return -1;
                }
                sincePause += limit;
            }
            return buffer[position++] & 0xff;
        }
    }
}
