package io.aigw.runtime.api;

import io.aigw.runtime.config.GatewayConfig;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The heap that request bodies in flight may hold together ({@code gateway.body-memory}): a body is
 * admitted when the room it takes is free, so that large bodies arriving at once wait for each
 * other briefly, or get a 503, instead of running the heap out. A body takes
 * {@link GatewayConfig.Limits#BODY_COST} times its length: the caller's bytes, and the body sent
 * upstream, which Helidon's client assembles once more into a buffer with the request's headers.
 */
final class BodyBudget {
    /** Bodies read without a declared length are taken in steps of this, each admitted as it comes. */
    static final int STEP = 64 * 1024;
    /** How long a body may wait for room: long enough for a body of a few megabytes to go upstream. */
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(2);

    private final long bytes;
    private final ReentrantLock lock = new ReentrantLock(true);
    private final Condition freed = lock.newCondition();
    /** Guarded by {@link #lock}. */
    private long free;

    /** @param bytes the heap bodies may hold together */
    BodyBudget(long bytes) {
        this.bytes = bytes;
        this.free = bytes;
    }

    long bytes() {
        return bytes;
    }

    Reservation open() {
        return new Reservation();
    }

    private boolean take(long amount) {
        lock.lock();
        try {
            long waitNanos = WAIT_NANOS;
            while (free < amount) {
                if (waitNanos <= 0) {
                    return false;
                }
                waitNanos = freed.awaitNanos(waitNanos);
            }
            free -= amount;
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }

    private void give(long amount) {
        lock.lock();
        try {
            free += amount;
            freed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Room held for one body, grown as it is read and given back when its request ends. */
    final class Reservation implements AutoCloseable {
        private long held;

        /**
         * Takes room for {@code bodyBytes} more of the body, waiting briefly for it.
         *
         * @throws ApiException a 503 saying to retry, when the room does not free up in time
         */
        void grow(long bodyBytes) {
            long wanted = bodyBytes * GatewayConfig.Limits.BODY_COST;
            if (!take(wanted)) {
                throw new ApiException(ApiError.bodiesOverloaded(bytes));
            }
            held += wanted;
        }

        @Override
        public void close() {
            give(held);
            held = 0;
        }
    }
}
