package io.aigw.runtime.limits;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Counts in this process's memory: exact for one gateway, and the default. Each key's window is
 * guarded by its own lock, held for a few arithmetic steps; keys never wait on one another.
 */
public final class LocalLimiter implements RateLimiter {
    private final Map<String, Window> windows = new ConcurrentHashMap<>();
    private final LongSupplier clockMillis;

    /** @param clockMillis the time in milliseconds, from any fixed origin */
    public LocalLimiter(LongSupplier clockMillis) {
        this.clockMillis = clockMillis;
    }

    /** Counts by {@link System#nanoTime()}, which no change of the wall clock moves. */
    public LocalLimiter() {
        this(() -> System.nanoTime() / 1_000_000);
    }

    @Override
    public Decision reserve(String keyId, Limits limits, long tokens) {
        return windows.computeIfAbsent(keyId, id -> new Window()).reserve(limits, tokens, clockMillis.getAsLong());
    }

    @Override
    public void close() {
        windows.clear();
    }

    /** One key's current window; its fields change only under its lock. */
    private static final class Window {
        private long start = Long.MIN_VALUE;
        private long requests;
        private long tokens;

        synchronized Decision reserve(Limits limits, long wanted, long now) {
            if (start == Long.MIN_VALUE || now - start >= Limits.WINDOW_MILLIS) {
                start = now;
                requests = 0;
                tokens = 0;
            }
            long reset = start + Limits.WINDOW_MILLIS - now;
            if (limits.rpm() > 0 && requests + 1 > limits.rpm()) {
                return new Decision.Refused(new Quota(limits, requests, tokens, reset), "requests");
            }
            if (limits.tpm() > 0 && tokens + wanted > limits.tpm()) {
                return new Decision.Refused(new Quota(limits, requests, tokens, reset), "tokens");
            }
            requests++;
            tokens += wanted;
            return new Decision.Admitted(new Held(this, start, wanted),
                    Optional.of(new Quota(limits, requests, tokens, reset)));
        }

        synchronized void adjust(long windowStart, long requestDelta, long tokenDelta) {
            if (start == windowStart) {
                requests += requestDelta;
                tokens = Math.max(0, tokens + tokenDelta);
            }
        }
    }

    private record Held(Window window, long windowStart, long tokens) implements Reservation {
        @Override
        public void settle(long used) {
            window.adjust(windowStart, 0, used - tokens);
        }

        @Override
        public void release() {
            window.adjust(windowStart, -1, -tokens);
        }
    }
}
