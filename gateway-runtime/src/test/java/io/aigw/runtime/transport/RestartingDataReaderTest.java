package io.aigw.runtime.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.helidon.common.buffers.DataReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

public final class RestartingDataReaderTest {
    private static final String ALL_BUT_THE_CURRENT = "of " + (ChunkChainProbe.REQUESTS - 1);

    @Test
    void helidonsReaderKeepsEveryChunkReadAfterAFullCollectionAliveThroughYoungOnes() throws Exception {
        assertEquals("freed 0 " + ALL_BUT_THE_CURRENT, probe("helidon"),
                "if young collections freed them, Helidon's reader no longer chains a connection's chunks:"
                        + " gateway.transport.restarting-reader's workaround may go (see the package doc)");
    }

    @Test
    void theRestartingReaderLetsYoungCollectionsFreeEveryConsumedChunk() throws Exception {
        assertEquals("freed " + (ChunkChainProbe.REQUESTS - 1) + " " + ALL_BUT_THE_CURRENT, probe("restarting"));
    }

    @Test
    void requestsSplitAcrossReadsComeOutWholeAndBytesOfTheNextAreNotLost() {
        // The second request starts in the read that ends the first: the reader may not start
        // afresh while it holds those bytes.
        DataReader reader = new RestartingDataReader(reads("GET /a HT", "TP/1.1\r\n\r\nGET /b HTTP/1.1\r\n", "\r\n"));

        assertEquals("GET /a HTTP/1.1", reader.readLine());
        assertEquals("", reader.readLine());
        assertEquals("GET /b HTTP/1.1", reader.readLine());
        assertEquals("", reader.readLine());
        assertThrows(DataReader.InsufficientDataAvailableException.class, reader::ensureAvailable);
    }

    @Test
    void aNewReaderStartsOnlyOnceAllThatWasReadIsConsumed() {
        RestartingDataReader reader = new RestartingDataReader(reads("GET /a HTTP/1.1\r\n\r\n", "GET /b HT",
                "TP/1.1\r\n\r\n"));
        assertEquals("GET /a HTTP/1.1", reader.readLine());
        int before = reader.restarts();

        assertEquals("", reader.readLine()); // the first read still holds this line's end
        assertEquals(before, reader.restarts());
        assertEquals("GET /b HTTP/1.1", reader.readLine()); // all consumed: a new reader, which reads on
        assertEquals(before + 1, reader.restarts());
        assertEquals("", reader.readLine());
        assertEquals(before + 1, reader.restarts());
    }

    @Test
    void aBodyOfKnownLengthIsReadAcrossReadsByteForByte() {
        DataReader reader = new RestartingDataReader(reads("{\"model\":", "\"openai/gpt-5\"}", "next"));

        assertEquals("{\"model\":\"openai/gpt-5\"}",
                new String(reader.readBytes(24), StandardCharsets.US_ASCII));
        assertTrue(reader.startsWith("next".getBytes(StandardCharsets.US_ASCII)));
        assertEquals("next", reader.readAsciiString(4));
    }

    @Test
    void lookingAheadConsumesNothing() {
        DataReader reader = new RestartingDataReader(reads("PRI", " * HTTP/2.0"));

        assertTrue(reader.startsWith("PRI * HTTP/2.0".getBytes(StandardCharsets.US_ASCII)));
        assertEquals(14, reader.available());
        assertEquals("PRI * HTTP/2.0", reader.readAsciiString(14));
    }

    /** Runs {@link ChunkChainProbe} with {@code reader} in a JVM of its own, whose collector is known, and returns its verdict. */
    private static String probe(String reader) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UseSerialGC", "-Xmx64m", "-Xmn8m", "-cp", System.getProperty("java.class.path"),
                ChunkChainProbe.class.getName(), reader)
                .redirectErrorStream(true)
                .start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertTrue(process.waitFor(1, TimeUnit.MINUTES), "the probe did not end");
        assertEquals(0, process.exitValue(), output);
        return output.substring(output.lastIndexOf('\n') + 1);
    }

    /** Each call hands out the next read, as a socket would; null once the caller has closed. */
    private static Supplier<byte[]> reads(String... chunks) {
        Deque<byte[]> pending = new ArrayDeque<>();
        List.of(chunks).forEach(chunk -> pending.add(chunk.getBytes(StandardCharsets.US_ASCII)));
        return pending::poll;
    }
}
