package io.aigw.runtime.transport;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.WebClient;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * How the end of an upstream's connection reads while a body is read (package doc, 7): Helidon's
 * client throws its own unchecked exception, whether the close ends the body or cuts it short;
 * through {@link UpstreamBodyStream} the first is the body's end and the second an
 * {@link EOFException}.
 */
final class UpstreamBodyStreamTest {
    private static final String BODY = "data: {\"n\":1}\n\ndata: [DONE]\n\n";
    private ServerSocket upstream;

    @BeforeEach
    void start() throws IOException {
        upstream = new ServerSocket(0, 5, InetAddress.getLoopbackAddress());
    }

    @AfterEach
    void stop() throws IOException {
        upstream.close();
    }

    @Test
    void helidonsClientThrowsItsOwnUncheckedExceptionAtTheCloseThatEndsABody() throws Exception {
        try (HttpClientResponse response = get("", BODY)) {
            InputStream body = response.inputStream();

            RuntimeException thrown = assertThrows(RuntimeException.class, body::readAllBytes);

            assertEquals("io.helidon.common.buffers.DataReader$InsufficientDataAvailableException",
                    thrown.getClass().getName(), "Helidon's client now ends a body delimited by the close in "
                            + "another way: UpstreamBodyStream may go (see the package doc)");
        }
    }

    @Test
    void aBodyDelimitedByTheCloseEndsThereWithEveryByte() throws Exception {
        try (HttpClientResponse response = get("", BODY)) {
            UpstreamBodyStream body = UpstreamBodyStream.of(response);

            assertTrue(body.endsByClose());
            assertArrayEquals(BODY.getBytes(StandardCharsets.UTF_8), body.readAllBytes());
            assertEquals(-1, body.read());
        }
    }

    @Test
    void aBodyCutShortOfItsLengthEndsInAnEofException() throws Exception {
        try (HttpClientResponse response = get("Content-Length: 1000\r\n", BODY)) {
            UpstreamBodyStream body = UpstreamBodyStream.of(response);

            assertFalse(body.endsByClose());
            assertThrows(EOFException.class, body::readAllBytes);
        }
    }

    @Test
    void aChunkedBodyCutShortOfItsLastChunkEndsInAnEofException() throws Exception {
        String chunk = Integer.toHexString(BODY.length()) + "\r\n" + BODY + "\r\n";
        try (HttpClientResponse response = get("Transfer-Encoding: chunked\r\n", chunk)) {
            UpstreamBodyStream body = UpstreamBodyStream.of(response);

            assertFalse(body.endsByClose());
            byte[] read = new byte[BODY.length()];
            assertEquals(BODY.length(), body.readNBytes(read, 0, read.length));
            assertThrows(EOFException.class, body::read);
        }
    }

    /** Asks the upstream once; it answers 200 with {@code framing} headers and {@code body}, then closes. */
    private HttpClientResponse get(String framing, String body) throws Exception {
        Thread answer = Thread.ofVirtual().start(() -> {
            try (Socket socket = upstream.accept()) {
                InputStream in = socket.getInputStream();
                int matched = 0;
                while (matched < 4) {
                    int b = in.read();
                    matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : b == '\r' ? 1 : 0;
                }
                OutputStream out = socket.getOutputStream();
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n" + framing + "\r\n" + body)
                        .getBytes(StandardCharsets.UTF_8));
                out.flush();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        HttpClientResponse response = WebClient.builder().shareConnectionCache(false).build()
                .get("http://127.0.0.1:" + upstream.getLocalPort() + "/").request();
        answer.join();
        return response;
    }
}
