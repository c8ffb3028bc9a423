package io.aigw.runtime.testing;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * A caller on a bare socket, for tests that must hang up mid-answer: an HTTP client library would
 * not let a test close the connection at an exact point of the stream.
 */
public final class RawCaller {
    private RawCaller() {
    }

    /** Writes a chat completion request with the test gateway's key and {@code body} on {@code caller}. */
    public static void sendChat(Socket caller, String body) throws IOException {
        sendChat(caller, TestGateway.KEY, body);
    }

    /** Writes a chat completion request with the workspace key {@code key} and {@code body} on {@code caller}. */
    public static void sendChat(Socket caller, String key, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        send(caller, "POST /api/v1/chat/completions", key, "Content-Type: application/json\r\nContent-Length: "
                + bytes.length + "\r\n", bytes);
    }

    /** Writes a {@code GET} of {@code path} with the test gateway's key on {@code caller}. */
    public static void sendGet(Socket caller, String path) throws IOException {
        send(caller, "GET " + path, TestGateway.KEY, "", new byte[0]);
    }

    private static void send(Socket caller, String requestLine, String key, String headers, byte[] body)
            throws IOException {
        OutputStream out = caller.getOutputStream();
        out.write((requestLine + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key
                + "\r\n" + headers + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
    }

    /** One answer read off a caller's connection: its status, headers (names in lower case) and body. */
    public record Answer(int status, Map<String, String> headers, String body) {
    }

    /** Reads one answer, framed by its Content-Length or chunked, leaving the connection at the next. */
    public static Answer readAnswer(InputStream in) throws IOException {
        String statusLine = line(in);
        if (statusLine.isEmpty()) {
            throw new EOFException("the connection ended before an answer");
        }
        Map<String, String> headers = new LinkedHashMap<>();
        for (String header = line(in); !header.isEmpty(); header = line(in)) {
            int colon = header.indexOf(':');
            headers.put(header.substring(0, colon).strip().toLowerCase(Locale.ROOT), header.substring(colon + 1).strip());
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            for (int size = Integer.parseInt(line(in), 16); size > 0; size = Integer.parseInt(line(in), 16)) {
                body.write(in.readNBytes(size));
                line(in);
            }
            line(in);
        } else {
            body.write(in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0"))));
        }
        return new Answer(Integer.parseInt(statusLine.split(" ")[1]), headers, body.toString(StandardCharsets.UTF_8));
    }

    /**
     * Reads one chunked answer as a strict client does: fails unless every chunk is whole and the
     * answer ends with its last chunk and blank line ({@code 0\r\n\r\n}), as curl and Python's
     * {@code http.client} require of a stream they take for complete.
     */
    public static Answer readChunkedToItsEnd(InputStream in) throws IOException {
        String statusLine = strictLine(in);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String header = strictLine(in); !header.isEmpty(); header = strictLine(in)) {
            int colon = header.indexOf(':');
            headers.put(header.substring(0, colon).strip().toLowerCase(Locale.ROOT), header.substring(colon + 1).strip());
        }
        if (!"chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            throw new AssertionError("not a chunked answer: " + statusLine + " " + headers);
        }
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        for (int size = Integer.parseInt(strictLine(in), 16); size > 0; size = Integer.parseInt(strictLine(in), 16)) {
            byte[] chunk = in.readNBytes(size);
            body.write(chunk);
            if (chunk.length < size || !strictLine(in).isEmpty()) {
                throw new AssertionError("a chunk broke off after: " + body.toString(StandardCharsets.UTF_8));
            }
        }
        if (!strictLine(in).isEmpty()) {
            throw new AssertionError("the last chunk is not followed by a blank line");
        }
        return new Answer(Integer.parseInt(statusLine.split(" ")[1]), headers, body.toString(StandardCharsets.UTF_8));
    }

    /** A line ended by CRLF; fails when the connection ends first. */
    private static String strictLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        for (int b = in.read(); ; b = in.read()) {
            if (b < 0) {
                throw new EOFException("the connection ended inside a line, the answer unfinished: "
                        + line.toString(StandardCharsets.US_ASCII));
            }
            if (b == '\n' && previous == '\r') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.US_ASCII);
            }
            line.write(b);
            previous = b;
        }
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(StandardCharsets.US_ASCII);
    }

    /**
     * Whether the gateway ended the connection: its next read finds the end (or a reset) rather than
     * bytes. A connection left open fails on the socket's read timeout.
     */
    public static boolean ended(Socket caller) throws IOException {
        try {
            int next = caller.getInputStream().read();
            if (next >= 0) {
                throw new AssertionError("the gateway sent more: " + (char) next
                        + new String(caller.getInputStream().readNBytes(Math.min(200,
                        caller.getInputStream().available())), StandardCharsets.ISO_8859_1));
            }
            return true;
        } catch (java.net.SocketException e) {
            return true;
        }
    }

    /** Writes {@code bytes} as they are. */
    public static void write(Socket caller, byte[] bytes) throws IOException {
        caller.getOutputStream().write(bytes);
        caller.getOutputStream().flush();
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
