package io.aigw.runtime.api;

import io.aigw.runtime.config.GatewayConfig;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
    private final long waitNanos;
    /** The room no body holds. */
    private final AtomicLong free = new AtomicLong();
    /** The room held by each key with a body in flight. */
    private final KeyCounters heldByKey = new KeyCounters();
    /** Bodies waiting for room wait in turn on this fair lock; while any waits, every body queues. */
    private final ReentrantLock lock = new ReentrantLock(true);
    private final Condition freed = lock.newCondition();
    /** Bodies waiting for room, counted before they look for it under {@link #lock}. */
    private final AtomicInteger waiting = new AtomicInteger();

    /**
     * @param bytes    the heap bodies may hold together
     * @param keyBytes the most of it one key's bodies may hold
     */
    BodyBudget(long bytes, long keyBytes) {
        this(bytes, keyBytes, WAIT_NANOS);
    }

    /** @param waitNanos how long a body may wait for room */
    BodyBudget(long bytes, long keyBytes, long waitNanos) {
        this.bytes = bytes;
        this.keyBytes = keyBytes;
        this.waitNanos = waitNanos;
        this.free.set(bytes);
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

    private Room take(Reservation body, long amount) {
        // Without waiters a body takes its room at once, with no lock; with some, it queues behind them.
        if (waiting.get() == 0) {
            Room room = tryTake(body, amount);
            if (room == Room.TAKEN) {
                return room;
            }
            // The gateway's room it claimed and gave back may have kept a waiter from room it now finds.
            wakeWaiters();
        }
        waiting.incrementAndGet();
        lock.lock();
        try {
            long leftNanos = waitNanos;
            while (true) {
                Room room = tryTake(body, amount);
                if (room == Room.TAKEN || leftNanos <= 0) {
                    return room;
                }
                leftNanos = freed.awaitNanos(leftNanos);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Room.GATEWAY_FULL;
        } finally {
            lock.unlock();
            waiting.decrementAndGet();
        }
    }

    /**
     * Takes the gateway's room, then the key's share of it, giving the room back when the share is
     * not there: room claimed a moment too long can only refuse another body, never over-commit.
     */
    private Room tryTake(Reservation body, long amount) {
        long now = free.get();
        while (true) {
            if (now < amount) {
                return Room.GATEWAY_FULL;
            }
            long seen = free.compareAndExchange(now, now - amount);
            if (seen == now) {
                break;
            }
            now = seen;
        }
        if (!body.takeShare(amount)) {
            free.addAndGet(amount);
            return Room.KEY_FULL;
        }
        return Room.TAKEN;
    }

    private void give(long amount) {
        free.addAndGet(amount);
        wakeWaiters();
    }

    /**
     * Wakes the bodies waiting for room, if any. A waiter counts itself before it looks for room,
     * and room is given back before this looks for waiters: either the waiter sees the room, or
     * this sees the waiter.
     */
    private void wakeWaiters() {
        if (waiting.get() > 0) {
            lock.lock();
            try {
                freed.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }

    /** Room held for one body, grown as it is read and given back when its request ends. */
    final class Reservation implements AutoCloseable {
        private final String keyId;
        /** The key's counter this body's share is held on, once it holds some. */
        private AtomicLong share;
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
            switch (take(this, wanted)) {
                case TAKEN -> held += wanted;
                case GATEWAY_FULL -> throw new ApiException(ApiError.bodiesOverloaded(bytes));
                case KEY_FULL -> throw new ApiException(ApiError.rateLimited("requests", "This key's request bodies"
                        + " in flight hold its share of the gateway's memory for them, " + keyBytes + " bytes"
                        + " (gateway.fairness.key-body-memory); retry when some of them end."));
            }
        }

        /** Adds {@code amount} to the key's share, if it fits. */
        private boolean takeShare(long amount) {
            // While this body holds some, its counter stays in the map; before, it may have been dropped.
            AtomicLong counter = held > 0 ? share : heldByKey.of(keyId);
            while (true) {
                long keyHeld = counter.get();
                if (keyHeld == KeyCounters.DROPPED) {
                    counter = heldByKey.after(keyId, counter);
                } else if (keyHeld + amount > keyBytes) {
                    return false;
                } else if (counter.compareAndSet(keyHeld, keyHeld + amount)) {
                    share = counter;
                    return true;
                }
            }
        }

        @Override
        public void close() {
            if (held > 0) {
                heldByKey.subtract(keyId, share, held);
                give(held);
                held = 0;
            }
        }
    }
}
