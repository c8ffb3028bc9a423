package io.aigw.runtime.api;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The chat requests the gateway takes on at once ({@code gateway.max-concurrent-requests}), shared
 * between keys so that none can shut the others out: the last {@code reserve} free slots
 * ({@code gateway.fairness.in-flight-reserve}) go only to keys holding fewer than {@code reserve}
 * requests. A key alone may so use every slot but the reserve, a single tenant's thousands of
 * streams included; once it does, other keys still find room, up to the reserve between them, and
 * more as its requests end. A slot taken cannot be taken back (a stream runs until it ends), so a
 * share that held only while others wait could not keep a slot for a key that comes later: the
 * reserve is what does.
 */
final class RequestSlots {
    private final int capacity;
    private final int reserve;
    /** Requests in flight. */
    private final AtomicInteger used = new AtomicInteger();
    /** Requests in flight per key with any. */
    private final KeyCounters heldByKey = new KeyCounters();

    /**
     * @param capacity requests in flight at once, at least 1
     * @param reserve  the last free slots kept for keys holding fewer requests than this, below capacity
     */
    RequestSlots(int capacity, int reserve) {
        if (capacity < 1 || reserve < 0 || reserve >= capacity) {
            throw new IllegalArgumentException("a reserve of " + reserve + " in " + capacity + " slots");
        }
        this.capacity = capacity;
        this.reserve = reserve;
    }

    int capacity() {
        return capacity;
    }

    int reserve() {
        return reserve;
    }

    /**
     * Takes a slot for a request of {@code keyId}, if one is free to it. No lock: the key's count is
     * claimed first and the slot after, each with an atomic update, and a claim that gets no slot is
     * given back. The slots are never over-committed; a key's requests racing at the reserve's edge
     * may count each other's claims and be refused where, one at a time, one would have got in.
     */
    Admission take(String keyId) {
        AtomicLong keyCount = heldByKey.of(keyId);
        long held;
        while (true) {
            held = keyCount.get();
            if (held == KeyCounters.DROPPED) {
                keyCount = heldByKey.after(keyId, keyCount);
            } else if (keyCount.compareAndSet(held, held + 1)) {
                break;
            }
        }
        int now = used.get();
        while (true) {
            if (now >= capacity) {
                heldByKey.subtract(keyId, keyCount, 1);
                return new Admission.Full();
            }
            if (held >= reserve && capacity - now <= reserve) {
                heldByKey.subtract(keyId, keyCount, 1);
                return new Admission.KeyBeyondReserve((int) held);
            }
            int seen = used.compareAndExchange(now, now + 1);
            if (seen == now) {
                return new Admission.Taken(this, keyId, keyCount);
            }
            now = seen;
        }
    }

    private void release(String keyId, AtomicLong keyCount) {
        used.decrementAndGet();
        heldByKey.subtract(keyId, keyCount, 1);
    }

    /** Whether a request got a slot, and if not, why. */
    sealed interface Admission {
        /** A slot, held until closed. */
        final class Taken implements Admission, AutoCloseable {
            private final RequestSlots slots;
            private final String keyId;
            private final AtomicLong keyCount;
            private boolean closed;

            private Taken(RequestSlots slots, String keyId, AtomicLong keyCount) {
                this.slots = slots;
                this.keyId = keyId;
                this.keyCount = keyCount;
            }

            @Override
            public void close() {
                if (!closed) {
                    closed = true;
                    slots.release(keyId, keyCount);
                }
            }
        }

        /** Every slot is taken. */
        record Full() implements Admission {
        }

        /** The free slots are the reserve, and the key holds {@code held} requests, too many to take from it. */
        record KeyBeyondReserve(int held) implements Admission {
        }
    }
}
