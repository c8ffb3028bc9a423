package io.aigw.runtime.pool;

import io.aigw.runtime.plugin.UpstreamKey;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the gateway knows of one upstream key's health: its calls in flight, until when it cools
 * down (429), whether the upstream refused it (401/403), its failures in a row and ejections, and
 * its use of the current minute against its {@code rpm} and {@code tpm}. Times are epoch
 * milliseconds, the clock replicas share when they share these states through Redis.
 *
 * <p>A key that was ejected or refused is on probation once its interval is over: one call at a
 * time goes to it, and the first that works makes it healthy again.
 */
final class KeyState {
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile long coolingUntil;
    private volatile long ejectedUntil;
    private volatile long refusedUntil;
    private volatile boolean refused;
    private volatile boolean onProbation;
    private final AtomicBoolean probing = new AtomicBoolean();
    private final AtomicInteger failuresInARow = new AtomicInteger();
    private final AtomicInteger ejections = new AtomicInteger();
    private volatile String lastError;
    private volatile long lastErrorAt;
    private final AtomicLong minute = new AtomicLong();
    private final AtomicLong requestsThisMinute = new AtomicLong();
    private final AtomicLong tokensThisMinute = new AtomicLong();

    /** A reload applied: the operator may have fixed the key, so a refusal is forgotten. */
    void forgetRefusal() {
        if (refused) {
            refused = false;
            refusedUntil = 0;
            onProbation = ejectedUntil > 0;
        }
    }

    int inFlight() {
        return inFlight.get();
    }

    /** The key's state at {@code now}. */
    KeyHealth health(long now) {
        if (refused && now < refusedUntil) {
            return KeyHealth.FAILED;
        }
        if (now < coolingUntil) {
            return KeyHealth.COOLING;
        }
        if (now < ejectedUntil) {
            return KeyHealth.EJECTED;
        }
        return onProbation ? KeyHealth.PROBATION : KeyHealth.HEALTHY;
    }

    /** Whether a call may go to it now: healthy, or on probation with no probe under way. */
    boolean choosable(long now) {
        KeyHealth health = health(now);
        return health == KeyHealth.HEALTHY || health == KeyHealth.PROBATION && !probing.get();
    }

    /** Whether the requests or tokens of the current minute reached the key's {@code rpm} or {@code tpm}. */
    boolean atItsLimits(UpstreamKey current, long now) {
        if (current.rpm().isEmpty() && current.tpm().isEmpty()) {
            return false;
        }
        roll(now);
        return current.rpm().isPresent() && requestsThisMinute.get() >= current.rpm().getAsLong()
                || current.tpm().isPresent() && tokensThisMinute.get() >= current.tpm().getAsLong();
    }

    /** How {@link #take} took the key. */
    enum Taken { REFUSED, TAKEN, PROBING }

    /**
     * Takes the key for one call, as the probe when it is on probation, or refuses when another
     * call probes it already.
     */
    Taken take(long now) {
        boolean probe = health(now) == KeyHealth.PROBATION;
        if (probe && !probing.compareAndSet(false, true)) {
            return Taken.REFUSED;
        }
        inFlight.incrementAndGet();
        roll(now);
        requestsThisMinute.incrementAndGet();
        return probe ? Taken.PROBING : Taken.TAKEN;
    }

    /** A call ends, whatever its verdict; {@code probe} when it was the key's probe. */
    void release(boolean probe) {
        inFlight.decrementAndGet();
        if (probe) {
            probing.set(false);
        }
    }

    /** The upstream answered with the key: it works. */
    boolean answered(long tokens, long now) {
        failuresInARow.set(0);
        if (tokens > 0) {
            roll(now);
            tokensThisMinute.addAndGet(tokens);
        }
        if (!onProbation) {
            return false;
        }
        onProbation = false;
        refused = false;
        ejections.set(0);
        return true;
    }

    /** A 429: the key rests until {@code until}. */
    void coolUntil(long until, String error, long now) {
        coolingUntil = Math.max(coolingUntil, until);
        noted(error, now);
    }

    /** A 401 or 403: skipped until a reload, or a probe after {@code until}. */
    void refuse(long until, String error, long now) {
        refused = true;
        refusedUntil = until;
        onProbation = true;
        noted(error, now);
    }

    /**
     * A 5xx, a timeout, a refused connection. Returns the ejection's length when it ejects the key:
     * after {@code ejectAfter} in a row, or at once on probation, each time twice as long up to
     * {@code longest}.
     */
    long failed(String error, long now, int ejectAfter, long firstEjection, long longest) {
        noted(error, now);
        if (failuresInARow.incrementAndGet() < ejectAfter && !onProbation) {
            return 0;
        }
        failuresInARow.set(0);
        int times = Math.min(ejections.incrementAndGet(), 31);
        long length = Math.min(longest, firstEjection << Math.min(times - 1, 20));
        ejectUntil(now + length);
        return length;
    }

    /** What another replica shared: its cool-down and ejection, each 0 when none. */
    void shared(long cooling, long ejected) {
        if (cooling > coolingUntil) {
            coolingUntil = cooling;
        }
        if (ejected > ejectedUntil) {
            ejectUntil(ejected);
        }
    }

    void ejectUntil(long until) {
        ejectedUntil = Math.max(ejectedUntil, until);
        onProbation = true;
    }

    long coolingUntil() {
        return coolingUntil;
    }

    long ejectedUntil() {
        return ejectedUntil;
    }

    /** Until when its current state lasts: cooling, ejected or failed; 0 when healthy. */
    long until(long now) {
        return switch (health(now)) {
            case COOLING -> coolingUntil;
            case EJECTED -> ejectedUntil;
            case FAILED -> refusedUntil;
            case HEALTHY, PROBATION -> 0;
        };
    }

    String lastError() {
        return lastError;
    }

    long lastErrorAt() {
        return lastErrorAt;
    }

    private void noted(String error, long now) {
        lastError = error;
        lastErrorAt = now;
    }

    private void roll(long now) {
        long current = now / 60_000;
        long seen = minute.get();
        if (seen != current && minute.compareAndSet(seen, current)) {
            requestsThisMinute.set(0);
            tokensThisMinute.set(0);
        }
    }
}
