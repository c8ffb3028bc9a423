package io.aigw.runtime.upstream;

import io.helidon.webclient.api.HttpClientResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;
import java.util.OptionalLong;

/**
 * The start of an upstream's body, read up to a limit: all of it when it fits, so that the heap
 * holds at most the limit per answer however large the upstream's answer is.
 *
 * @param bytes      the bytes read
 * @param whole      whether they are the whole body
 * @param endPending whether the body was read to its stated length and no further: the client
 *                   takes it as done only at the read past its end ({@link #finish})
 */
record UpstreamBody(byte[] bytes, boolean whole, boolean endPending) {

    /**
     * Reads the body of {@code upstream} from {@code in}, up to {@code limit} bytes. A body whose
     * Content-Length fits is read to that length, and {@link #finish} reads past its end.
     *
     * @throws IOException when the body breaks off before its Content-Length; the client reports a
     *                     broken connection unchecked, as an {@link java.io.UncheckedIOException}
     */
    static UpstreamBody read(HttpClientResponse upstream, InputStream in, int limit) throws IOException {
        OptionalLong declared = upstream.headers().contentLength();
        if (declared.isPresent() && declared.getAsLong() <= limit) {
            return new UpstreamBody(readDeclared(in, (int) declared.getAsLong()), true, true);
        }
        // One byte past the limit tells a body of exactly the limit from a longer one.
        byte[] start = readAtMost(in, limit + 1);
        return new UpstreamBody(start, start.length <= limit, false);
    }

    /**
     * Reads a body of known length into an array of that size: reading to the end in chunks would
     * allocate a buffer per chunk here and another in the client, for every answer.
     */
    private static byte[] readDeclared(InputStream in, int length) throws IOException {
        byte[] body = new byte[length];
        if (in.readNBytes(body, 0, length) < length) {
            throw new IOException("The upstream body ended short of its Content-Length");
        }
        return body;
    }

    /**
     * Reads past the end of a body read to its length: the client then closes its response and
     * keeps the connection for another request, where a response closed short of that read drops
     * the connection. Called once the caller has the answer, it leaves that bookkeeping (the
     * client's check of the answer's Connection header, the connection's return to its pool: 1 us
     * a request, issue 50) off the caller's wait. A read that fails leaves the connection to be
     * dropped.
     */
    void finish(InputStream in) {
        if (!endPending) {
            return;
        }
        try {
            in.read();
        } catch (IOException | RuntimeException e) {
            // The response's close then drops the connection, as for any body not read to its end.
        }
    }

    /**
     * Whether the bytes can be a JSON object, as a chat completion is: they open with a brace and,
     * when whole, close with one. What an upstream answers 200 that is not one (a proxy's page, a
     * plain "OK", nothing, a body cut short) fails this; a body of braces that is not JSON inside
     * would pass, which no parse of every answer on the request path is spent to catch.
     */
    boolean canBeJsonObject() {
        int first = 0;
        while (first < bytes.length && isBlank(bytes[first])) {
            first++;
        }
        if (first == bytes.length || bytes[first] != '{') {
            return false;
        }
        int last = bytes.length - 1;
        while (last > first && isBlank(bytes[last])) {
            last--;
        }
        return !whole || (last > first && bytes[last] == '}');
    }

    /** JSON white space. */
    private static boolean isBlank(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    /** Reads until the end or {@code max} bytes, into an array that grows as the body does. */
    private static byte[] readAtMost(InputStream in, int max) throws IOException {
        byte[] buffer = new byte[Math.min(max, 8192)];
        int length = 0;
        while (length < max) {
            if (length == buffer.length) {
                buffer = Arrays.copyOf(buffer, Math.min(max, buffer.length * 2));
            }
            int n = in.read(buffer, length, buffer.length - length);
            if (n < 0) {
                break;
            }
            length += n;
        }
        return length == buffer.length ? buffer : Arrays.copyOf(buffer, length);
    }
}
