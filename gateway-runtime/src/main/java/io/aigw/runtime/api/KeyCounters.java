package io.aigw.runtime.api;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What each key holds now (requests in flight, bodies' room), counted without a lock. A key whose
 * count falls to nothing leaves the map, so that the map holds only the keys busy now. Its counter
 * is marked {@link #DROPPED} before it leaves: a taker that got it from the map just before sees
 * the mark instead of counting on a counter no one will look at again, and takes the key's next
 * one ({@link #after}).
 */
final class KeyCounters {
    /** The value of a counter that left the map. */
    static final long DROPPED = Long.MIN_VALUE;

    private final ConcurrentHashMap<String, AtomicLong> counters = new ConcurrentHashMap<>();

    /** The key's counter. */
    AtomicLong of(String keyId) {
        return counters.computeIfAbsent(keyId, key -> new AtomicLong());
    }

    /** The key's counter after {@code dropped}, which its taker found {@link #DROPPED}. */
    AtomicLong after(String keyId, AtomicLong dropped) {
        counters.remove(keyId, dropped);
        return of(keyId);
    }

    /** Takes {@code amount} off the key's {@code counter}; with nothing left, the counter leaves the map. */
    void subtract(String keyId, AtomicLong counter, long amount) {
        if (counter.addAndGet(-amount) == 0 && counter.compareAndSet(0, DROPPED)) {
            counters.remove(keyId, counter);
        }
    }
}
