package io.aigw.runtime.testing;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A caller on a bare socket, for tests that must hang up mid-answer: an HTTP client library would
 * not let a test close the connection at an exact point of the stream.
 */
public final class RawCaller {
    private RawCaller() {
    }

    /** Writes a chat completion request with the test gateway's key and {@code body} on {@code caller}. */
    public static void sendChat(Socket caller, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        send(caller, "POST /api/v1/chat/completions", "Content-Type: application/json\r\nContent-Length: "
                + bytes.length + "\r\n", bytes);
    }

    /** Writes a {@code GET} of {@code path} with the test gateway's key on {@code caller}. */
    public static void sendGet(Socket caller, String path) throws IOException {
        send(caller, "GET " + path, "", new byte[0]);
    }

    private static void send(Socket caller, String requestLine, String headers, byte[] body) throws IOException {
        OutputStream out = caller.getOutputStream();
        out.write((requestLine + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TestGateway.KEY
                + "\r\n" + headers + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
    }

    /** Reads until {@code marker} has arrived; fails if the stream ends first. */
    public static void readUntil(InputStream in, String marker) throws IOException {
        StringBuilder seen = new StringBuilder();
        while (seen.indexOf(marker) < 0) {
            int b = in.read();
            if (b < 0) {
                throw new AssertionError("stream ended before '" + marker + "': " + seen);
            }
            seen.append((char) b);
        }
    }
}
