package io.aigw.runtime.transport;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * What the transport reads and mends in the first bytes of a request, before Helidon's parser:
 * Helidon takes {@code post} for {@code POST} and fails with 500 on a control character in the
 * method, refuses HTTP/1.0 with 505, and HTTP/1.0 without {@code Host} with 400.
 */
final class RequestLines {
    private static final byte[] LOCAL_HOST = "Host: localhost\r\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HTTP10 = " HTTP/1.0".getBytes(StandardCharsets.US_ASCII);

    private RequestLines() {
    }

    /**
     * Checks the method at the start of {@code bytes}: an upper-case token, else the request is
     * refused (400). True once the method's end (a space) was seen, false if it goes on in the next
     * bytes.
     */
    static boolean methodEnds(byte[] bytes) {
        for (byte b : bytes) {
            if (b == ' ') {
                return true;
            }
            if (!isUpperCaseTokenByte(b)) {
                throw RequestRefusals.badRequest("The request method is not one the gateway knows: methods are"
                        + " upper-case words (POST, GET, DELETE).");
            }
        }
        return false;
    }

    private static boolean isUpperCaseTokenByte(byte b) {
        return (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || "!#$%&'*+-.^_`|~".indexOf(b) >= 0;
    }

    /**
     * Makes an HTTP/1.0 request line read as HTTP/1.1, which is all Helidon's parser takes, when the
     * line is whole in {@code bytes} (it is for the requests of real clients, nginx's included);
     * true if it did. The request is then answered as HTTP/1.0 needs: see {@link CallerEvents}.
     */
    static boolean toHttp11(byte[] bytes) {
        int newLine = -1;
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == '\n') {
                newLine = i;
                break;
            }
        }
        int end = newLine > 0 && bytes[newLine - 1] == '\r' ? newLine - 1 : newLine;
        if (end < HTTP10.length) {
            return false;
        }
        for (int i = 0; i < HTTP10.length; i++) {
            if (bytes[end - HTTP10.length + i] != HTTP10[i]) {
                return false;
            }
        }
        bytes[end - 1] = '1';
        return true;
    }

    /**
     * An HTTP/1.0 request may come without {@code Host} (health checkers send none), which Helidon
     * refuses: one naming the gateway itself is added after the request line, when the request's
     * head is whole in {@code bytes} and has none.
     */
    static byte[] withHost(byte[] bytes) {
        String head = new String(bytes, StandardCharsets.ISO_8859_1);
        int lineEnd = head.indexOf('\n');
        // The blank line that ends the head; right after the request line when it has no field.
        int headEnd = lineEnd < 1 ? -1 : head.indexOf("\r\n\r\n", lineEnd - 1);
        if (headEnd < 0) {
            return bytes;
        }
        String fields = head.substring(lineEnd, headEnd + 2).toLowerCase(Locale.ROOT);
        if (fields.contains("\nhost:")) {
            return bytes;
        }
        byte[] withHost = new byte[bytes.length + LOCAL_HOST.length];
        System.arraycopy(bytes, 0, withHost, 0, lineEnd + 1);
        System.arraycopy(LOCAL_HOST, 0, withHost, lineEnd + 1, LOCAL_HOST.length);
        System.arraycopy(bytes, lineEnd + 1, withHost, lineEnd + 1 + LOCAL_HOST.length, bytes.length - lineEnd - 1);
        return withHost;
    }

    /** Whether {@code bytes} begin as {@code prefix} does, as far as they go. */
    static boolean startsWith(byte[] bytes, byte[] prefix) {
        int length = Math.min(bytes.length, prefix.length);
        for (int i = 0; i < length; i++) {
            if (bytes[i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
