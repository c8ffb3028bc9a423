package io.aigw.runtime.api;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

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
    private final ReentrantLock lock = new ReentrantLock();
    /** Guarded by {@link #lock}: requests in flight, in all and per key with any. */
    private int used;
    private final Map<String, Integer> heldByKey = new HashMap<>();

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

    /** Takes a slot for a request of {@code keyId}, if one is free to it. */
    Admission take(String keyId) {
        lock.lock();
        try {
            if (used >= capacity) {
                return new Admission.Full();
            }
            int held = heldByKey.getOrDefault(keyId, 0);
            if (held >= reserve && capacity - used <= reserve) {
                return new Admission.KeyBeyondReserve(held);
            }
            used++;
            heldByKey.put(keyId, held + 1);
            return new Admission.Taken(this, keyId);
        } finally {
            lock.unlock();
        }
    }

    private void giveBack(String keyId) {
        lock.lock();
        try {
            used--;
            // A key with nothing in flight leaves the map: it holds only the keys busy now.
            heldByKey.computeIfPresent(keyId, (key, held) -> held == 1 ? null : held - 1);
        } finally {
            lock.unlock();
        }
    }

    /** Whether a request got a slot, and if not, why. */
    sealed interface Admission {
        /** A slot, held until closed. */
        final class Taken implements Admission, AutoCloseable {
            private final RequestSlots slots;
            private final String keyId;
            private boolean closed;

            private Taken(RequestSlots slots, String keyId) {
                this.slots = slots;
                this.keyId = keyId;
            }

            @Override
            public void close() {
                if (!closed) {
                    closed = true;
                    slots.giveBack(keyId);
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
