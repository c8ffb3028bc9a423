package io.aigw.runtime.transport;

import io.helidon.common.buffers.DataReader;
import io.helidon.http.HeaderNames;
import io.helidon.http.Headers;
import io.helidon.webclient.api.HttpClientResponse;
import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.util.List;

/**
 * An upstream answer's body whose end reads as RFC 9112 (section 6.3) tells it. Helidon's client
 * reports the end of the connection while it reads a body as
 * {@link DataReader.InsufficientDataAvailableException}, unchecked, both where the close is the
 * body's end (an answer with neither a length nor chunks, as Python's {@code http.server} and
 * some proxies send a stream) and where it cuts a body short of its length or last chunk. Here the
 * first is the end of the stream ({@code -1}) and the second an {@link EOFException}, so that the
 * gateway above the transport reads an upstream with plain {@code java.io}.
 */
public final class UpstreamBodyStream extends FilterInputStream {
    private final boolean endsByClose;

    private UpstreamBodyStream(HttpClientResponse response) {
        super(response.inputStream());
        this.endsByClose = endsByClose(response.headers());
    }

    /** The body of {@code response}, read from where its headers end. */
    public static UpstreamBodyStream of(HttpClientResponse response) {
        return new UpstreamBodyStream(response);
    }

    /**
     * Whether the body ends with the connection: neither chunked last nor of a stated length, as
     * Helidon's client frames it. Such a body cannot tell a finished answer from an upstream that
     * stopped short: only what it holds can (a stream's {@code data: [DONE]}).
     */
    public boolean endsByClose() {
        return endsByClose;
    }

    @Override
    public int read() throws IOException {
        try {
            return super.read();
        } catch (DataReader.InsufficientDataAvailableException e) {
            return connectionEnded();
        }
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        try {
            return super.read(buffer, offset, length);
        } catch (DataReader.InsufficientDataAvailableException e) {
            return connectionEnded();
        }
    }

    private int connectionEnded() throws EOFException {
        if (endsByClose) {
            return -1;
        }
        throw new EOFException("The upstream closed the connection before the end of its answer");
    }

    private static boolean endsByClose(Headers headers) {
        if (headers.contains(HeaderNames.TRANSFER_ENCODING)) {
            List<String> codings = headers.get(HeaderNames.TRANSFER_ENCODING).allValues();
            String last = codings.getLast();
            return !last.substring(last.lastIndexOf(',') + 1).strip().equalsIgnoreCase("chunked");
        }
        return !headers.contains(HeaderNames.CONTENT_LENGTH);
    }
}
