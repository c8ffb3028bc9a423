package io.aigw.runtime.upstream;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * Copies a server-sent event stream from the upstream to the caller, flushing after each complete
 * event, so the caller sees every event as soon as the upstream sends it and never half of one.
 * The bytes are passed through untouched: comments, {@code data: [DONE]}, line endings and all.
 */
final class SseRelay {
    /** Past this much without an event boundary the bytes go out anyway: no stream is held back. */
    private static final int MAX_PENDING = 64 * 1024;

    private final InputStream upstream;
    private final OutputStream caller;
    private byte[] pending = new byte[8192];
    private int pendingLength;

    SseRelay(InputStream upstream, OutputStream caller) {
        this.upstream = upstream;
        this.caller = caller;
    }

    /**
     * Relays until the upstream ends its stream.
     *
     * @throws UpstreamBroke when reading the upstream fails; what was complete has been delivered
     * @throws CallerGone    when writing to the caller fails
     */
    void run() {
        byte[] buffer = new byte[8192];
        while (true) {
            int n;
            try {
                n = upstream.read(buffer);
            } catch (IOException | UncheckedIOException e) {
                throw new UpstreamBroke(e);
            }
            if (n < 0) {
                if (pendingLength > 0) {
                    write(pending, 0, pendingLength);
                    pendingLength = 0;
                }
                return;
            }
            append(buffer, n);
            int end = lastEventEnd();
            if (end > 0 || pendingLength > MAX_PENDING) {
                int length = end > 0 ? end : pendingLength;
                write(pending, 0, length);
                System.arraycopy(pending, length, pending, 0, pendingLength - length);
                pendingLength -= length;
            }
        }
    }

    /** Writes one event the gateway makes itself, such as an error, as a complete event. */
    void emit(byte[] event) {
        write(event, 0, event.length);
    }

    private void write(byte[] bytes, int offset, int length) {
        try {
            caller.write(bytes, offset, length);
            caller.flush();
        } catch (IOException | UncheckedIOException e) {
            throw new CallerGone(e);
        }
    }

    private void append(byte[] bytes, int length) {
        if (pendingLength + length > pending.length) {
            pending = Arrays.copyOf(pending, Math.max(pending.length * 2, pendingLength + length));
        }
        System.arraycopy(bytes, 0, pending, pendingLength, length);
        pendingLength += length;
    }

    /** Returns the index just past the last blank line ({@code \n\n} or {@code \r\n\r\n}), or 0. */
    private int lastEventEnd() {
        for (int i = pendingLength - 1; i >= 1; i--) {
            if (pending[i] == '\n' && (pending[i - 1] == '\n'
                    || (i >= 3 && pending[i - 1] == '\r' && pending[i - 2] == '\n' && pending[i - 3] == '\r'))) {
                return i + 1;
            }
        }
        return 0;
    }

    /** Reading the upstream failed mid-stream. */
    static final class UpstreamBroke extends RuntimeException {
        UpstreamBroke(Exception cause) {
            super(cause);
        }
    }

    /** Writing to the caller failed: it went away. */
    static final class CallerGone extends RuntimeException {
        CallerGone(Exception cause) {
            super(cause);
        }
    }
}
