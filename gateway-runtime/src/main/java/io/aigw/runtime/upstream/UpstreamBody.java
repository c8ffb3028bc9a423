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
 * @param bytes the bytes read
 * @param whole whether they are the whole body
 */
record UpstreamBody(byte[] bytes, boolean whole) {

    /**
     * Reads the body of {@code upstream} from {@code in}, up to {@code limit} bytes.
     *
     * @throws IOException when the body breaks off or does not match its Content-Length; the client
     *                     reports a broken connection unchecked, as an {@link java.io.UncheckedIOException}
     */
    static UpstreamBody read(HttpClientResponse upstream, InputStream in, int limit) throws IOException {
        OptionalLong declared = upstream.headers().contentLength();
        if (declared.isPresent() && declared.getAsLong() <= limit) {
            return new UpstreamBody(readDeclared(in, (int) declared.getAsLong()), true);
        }
        // One byte past the limit tells a body of exactly the limit from a longer one.
        byte[] start = readAtMost(in, limit + 1);
        return new UpstreamBody(start, start.length <= limit);
    }

    /**
     * Reads a body of known length into an array of that size: reading to the end in chunks would
     * allocate a buffer per chunk here and another in the client, for every answer.
     */
    private static byte[] readDeclared(InputStream in, int length) throws IOException {
        byte[] body = new byte[length];
        // The read past the end is what tells the client the body is done, so the connection is reused.
        if (in.readNBytes(body, 0, length) < length || in.read() != -1) {
            throw new IOException("The upstream body did not match its Content-Length");
        }
        return body;
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
