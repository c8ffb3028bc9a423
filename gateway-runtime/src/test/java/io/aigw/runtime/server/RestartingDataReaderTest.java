package io.aigw.runtime.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.helidon.common.buffers.DataReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

public final class RestartingDataReaderTest {

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

    /** Each call hands out the next read, as a socket would; null once the caller has closed. */
    private static Supplier<byte[]> reads(String... chunks) {
        Deque<byte[]> pending = new ArrayDeque<>();
        List.of(chunks).forEach(chunk -> pending.add(chunk.getBytes(StandardCharsets.US_ASCII)));
        return pending::poll;
    }
}
