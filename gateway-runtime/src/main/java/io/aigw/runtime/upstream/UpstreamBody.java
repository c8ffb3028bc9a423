package io.aigw.runtime.upstream;

import io.helidon.webclient.api.HttpClientResponse;
import java.io.IOException;
import java.io.InputStream;
import java.util.OptionalLong;

/** Reads an upstream's answer whole, for a plain answer or an error. */
final class UpstreamBody {
    /** Bodies up to this size, with a Content-Length, are read into an array of exactly that size. */
    private static final long MAX_SIZED_BODY = 16 * 1024 * 1024;

    private UpstreamBody() {
    }

    /**
     * Reads the whole body of {@code upstream} from {@code in}.
     *
     * @throws IOException when the body breaks off or does not match its Content-Length; the client
     *                     reports a broken connection unchecked, as an {@link java.io.UncheckedIOException}
     */
    static byte[] read(HttpClientResponse upstream, InputStream in) throws IOException {
        OptionalLong length = upstream.headers().contentLength();
        return length.isPresent() && length.getAsLong() <= MAX_SIZED_BODY
                ? readDeclared(in, (int) length.getAsLong()) : in.readAllBytes();
    }

    /**
     * Reads a body of known length into an array of that size: readAllBytes would read in 16 KB
     * chunks, and the client allocates a buffer of each chunk's size too, for every answer.
     */
    private static byte[] readDeclared(InputStream in, int length) throws IOException {
        byte[] body = new byte[length];
        // The read past the end is what tells the client the body is done, so the connection is reused.
        if (in.readNBytes(body, 0, length) < length || in.read() != -1) {
            throw new IOException("The upstream body did not match its Content-Length");
        }
        return body;
    }
}
