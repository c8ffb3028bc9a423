package io.aigw.runtime.transport;

import java.util.concurrent.TimeUnit;

/**
 * The pace a request body must keep ({@code gateway.timeouts.caller-body-min-rate} and
 * {@code -body-grace}): the time the gateway spends waiting on the caller for its body is paid
 * back at one second per {@code min-rate} bytes that arrive, and a body may owe at most its grace.
 * A body starts with its grace to spend, and bytes that come faster than the rate earn back at most
 * that grace: a body sent fast cannot bank time for a long pause later, so a caller holds a body's
 * memory only while it keeps sending. Only the time spent waiting on the caller counts, not the
 * time the gateway takes between two reads.
 */
final class BodyPace {
    private static final long NANOS_PER_SECOND = TimeUnit.SECONDS.toNanos(1);

    private final long minRate;
    private final long graceNanos;
    /** What the body may still fall behind; below zero, it is too slow. */
    private long allowanceNanos;

    BodyPace(CallerTimeouts timeouts) {
        this.minRate = timeouts.bodyMinRate();
        this.graceNanos = timeouts.bodyGrace().toNanos();
        this.allowanceNanos = graceNanos;
    }

    /** A new request's body: its grace to spend. */
    void restart() {
        allowanceNanos = graceNanos;
    }

    /**
     * Counts {@code bytes} of the body, which arrived after the gateway waited {@code waitedNanos}.
     *
     * @return whether the body still keeps the pace
     */
    boolean kept(long waitedNanos, int bytes) {
        if (minRate == 0) {
            return true;
        }
        allowanceNanos = Math.min(graceNanos, allowanceNanos - waitedNanos + bytes * NANOS_PER_SECOND / minRate);
        return allowanceNanos >= 0;
    }
}
