package io.aigw.runtime.api;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a body sent without a length (chunked) in steps, each admitted by the body budget before it
 * is read, so that what a caller streams in is held only once the heap has room for it.
 */
final class UndeclaredBody {
    private UndeclaredBody() {
    }

    /**
     * Reads the whole body.
     *
     * @throws ApiException 413 past {@code maxBytes}, 503 when the budget has no room for the next step
     */
    static byte[] read(InputStream in, long maxBytes, BodyBudget.Reservation reservation) throws IOException {
        List<byte[]> steps = new ArrayList<>();
        int total = 0;
        while (true) {
            int wanted = (int) Math.min(BodyBudget.STEP, maxBytes - total);
            if (wanted == 0) {
                // At the limit: one byte more is enough to refuse the body, and needs no room.
                if (in.read() >= 0) {
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
                break;
            }
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
