package io.aigw.runtime.api;

import io.aigw.runtime.config.GatewayConfig;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The heap that request bodies in flight may hold together ({@code gateway.body-memory}), and the
 * most of it one key's bodies may hold ({@code gateway.fairness.key-body-memory}): a body takes room
 * as its bytes arrive ({@link ArrivingBody}), so that large bodies arriving at once wait for each
 * other briefly, or get a 503, instead of running the heap out, and so that one key's bodies, however
 * slowly they come, leave room for other keys'. A body takes {@link GatewayConfig.Limits#BODY_COST}
 * times its length: the caller's bytes, and the body sent upstream, which Helidon's client assembles
 * once more into a buffer with the request's headers.
 */
final class BodyBudget {
    /** How long a body may wait for room: long enough for a body of a few megabytes to go upstream. */
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final long bytes;
    private final long keyBytes;
    private final ReentrantLock lock = new ReentrantLock(true);
    private final Condition freed = lock.newCondition();
    /** Guarded by {@link #lock}. */
    private long free;
    /** Guarded by {@link #lock}: the room held by each key with a body in flight. */
    private final Map<String, Long> heldByKey = new HashMap<>();

    /**
     * @param bytes    the heap bodies may hold together
     * @param keyBytes the most of it one key's bodies may hold
     */
    BodyBudget(long bytes, long keyBytes) {
        this.bytes = bytes;
        this.keyBytes = keyBytes;
        this.free = bytes;
    }

    long bytes() {
        return bytes;
    }

    /** Room for a body of {@code keyId}'s, none held yet. */
    Reservation open(String keyId) {
        return new Reservation(keyId);
    }

    /** Whether room was taken, and if not, which limit kept it. */
    private enum Room { TAKEN, GATEWAY_FULL, KEY_FULL }

    private Room take(String keyId, long amount) {
        lock.lock();
        try {
            long waitNanos = WAIT_NANOS;
            while (free < amount || heldByKey.getOrDefault(keyId, 0L) + amount > keyBytes) {
                if (waitNanos <= 0) {
                    return free < amount ? Room.GATEWAY_FULL : Room.KEY_FULL;
                }
                waitNanos = freed.awaitNanos(waitNanos);
            }
            free -= amount;
            heldByKey.merge(keyId, amount, Long::sum);
            return Room.TAKEN;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Room.GATEWAY_FULL;
        } finally {
            lock.unlock();
        }
    }

    private void give(String keyId, long amount) {
        lock.lock();
        try {
            free += amount;
            // A key with no body in flight leaves the map: it holds only the keys sending bodies now.
            // No lambda: one that captures is made anew for every body, and this runs for each.
            long stillHeld = heldByKey.get(keyId) - amount;
            if (stillHeld == 0) {
                heldByKey.remove(keyId);
            } else {
                heldByKey.put(keyId, stillHeld);
            }
            freed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Room held for one body, grown as it is read and given back when its request ends. */
    final class Reservation implements AutoCloseable {
        private final String keyId;
        private long held;

        private Reservation(String keyId) {
            this.keyId = keyId;
        }

        /**
         * Takes room for {@code bodyBytes} more of the body, waiting briefly for it.
         *
         * @throws ApiException a 503 saying to retry when the gateway's room does not free up in time,
         *                      a 429 when the key's share of it does not
         */
        void grow(long bodyBytes) {
            long wanted = bodyBytes * GatewayConfig.Limits.BODY_COST;
            switch (take(keyId, wanted)) {
                case TAKEN -> held += wanted;
                case GATEWAY_FULL -> throw new ApiException(ApiError.bodiesOverloaded(bytes));
                case KEY_FULL -> throw new ApiException(ApiError.rateLimited("requests", "This key's request bodies"
                        + " in flight hold its share of the gateway's memory for them, " + keyBytes + " bytes"
                        + " (gateway.fairness.key-body-memory); retry when some of them end."));
            }
        }

        @Override
        public void close() {
            if (held > 0) {
                give(keyId, held);
                held = 0;
            }
        }
    }
}
