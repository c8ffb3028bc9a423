package io.aigw.runtime.api;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a request body in steps, each admitted by the body budget before it is read: a body holds
 * room for what has arrived of it and the one step it waits on, never for the length it declares,
 * so that a caller declaring a large body and sending it slowly holds a few kilobytes (nginx holds
 * 8 to 16 KB of a body in memory, and spools the rest). The first step is small for that reason,
 * and is the whole of most chat bodies, read into an array of their length.
 */
final class ArrivingBody {
    /** What a body that has just begun holds. */
    static final int FIRST_STEP = 16 * 1024;
    /** The steps after it. */
    static final int STEP = 64 * 1024;

    private ArrivingBody() {
    }

    /**
     * Reads the whole body.
     *
     * @param declared its Content-Length, or -1 when it has none (chunked), when it is read up to
     *                 {@code maxBytes} and one byte more refused
     * @throws ApiException 413 past {@code maxBytes}, 503 or 429 when the budget has no room for the next step
     * @throws IOException  when the body ends before its declared length, or cannot be read
     */
    static byte[] read(InputStream in, long declared, long maxBytes, BodyBudget.Reservation reservation)
            throws IOException {
        long limit = declared >= 0 ? declared : maxBytes;
        List<byte[]> steps = new ArrayList<>();
        int total = 0;
        while (true) {
            int wanted = (int) Math.min(steps.isEmpty() ? FIRST_STEP : STEP, limit - total);
            if (wanted == 0) {
                // At the limit of a body without a length: one byte more is enough to refuse it, and needs no room.
                if (declared < 0 && in.read() >= 0) {
                    throw new ApiException(ApiError.requestTooLarge(maxBytes));
                }
                break;
            }
            reservation.grow(wanted);
            byte[] step = new byte[wanted];
            int read = in.readNBytes(step, 0, wanted);
            steps.add(step);
            total += read;
            if (read < wanted) {
                if (declared >= 0) {
                    throw new IOException("The body ended before its Content-Length");
                }
                break;
            }
        }
        if (steps.size() == 1 && steps.getFirst().length == total) {
            return steps.getFirst();
        }
        byte[] body = new byte[total];
        int at = 0;
        for (byte[] step : steps) {
            int length = Math.min(step.length, total - at);
            System.arraycopy(step, 0, body, at, length);
            at += length;
        }
        return body;
    }
}
