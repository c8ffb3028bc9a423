package io.aigw.runtime.upstream;

import io.aigw.runtime.config.UpstreamTimeouts;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Enforces the first-byte and idle timeouts of upstream calls.
 *
 * <p>A socket read timeout cannot change between the headers and the body of one response, but
 * the two limits differ, so a watcher thread does it instead: when a deadline passes it interrupts
 * the virtual thread waiting on the upstream, which closes that socket and ends the wait.
 *
 * <p>The watcher looks at every open deadline once per tick rather than keeping a timer per call:
 * with a timer queue, each call that found the queue empty (every call, at one connection) woke
 * the timer thread to re-arm it, a context switch per request on a gateway's busiest path. Progress
 * costs one volatile write. A deadline passes at most one tick late; with nothing to watch for a
 * few ticks the watcher sleeps until the next call starts.
 */
final class Deadlines implements AutoCloseable {
    private static final int IDLE_TICKS_BEFORE_SLEEP = 10;
    private static final long MIN_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long MAX_TICK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final Set<Deadline> open = ConcurrentHashMap.newKeySet();
    private final long tickNanos;
    private final Thread watcher;
    private volatile boolean sleeping;
    private volatile boolean stopped;

    /** @param tick how often open deadlines are looked at: how late one may pass at most */
    Deadlines(Duration tick) {
        this.tickNanos = tick.toNanos();
        this.watcher = Thread.ofPlatform().daemon().name("aigw-upstream-deadlines").start(this::watch);
    }

    /** A tick fine enough for the shortest of the timeouts: a tenth of it, from 1 ms to 100 ms. */
    static Duration tickFor(UpstreamTimeouts timeouts) {
        long shortest = Math.min(timeouts.firstByte().toNanos(), timeouts.idle().toNanos());
        return Duration.ofNanos(Math.clamp(shortest / 10, MIN_TICK_NANOS, MAX_TICK_NANOS));
    }

    /** Starts a deadline for the current thread that passes after {@code nanos} without progress. */
    Deadline start(long nanos) {
        Deadline deadline = new Deadline(Thread.currentThread(), nanos);
        open.add(deadline);
        // Read after the add: the watcher sets the flag before it looks at the set a last time.
        if (sleeping) {
            LockSupport.unpark(watcher);
        }
        return deadline;
    }

    private void watch() {
        int idleTicks = 0;
        while (!stopped) {
            if (!open.isEmpty()) {
                idleTicks = 0;
            } else if (++idleTicks > IDLE_TICKS_BEFORE_SLEEP) {
                sleeping = true;
                if (open.isEmpty() && !stopped) {
                    LockSupport.park(this);
                }
                sleeping = false;
                idleTicks = 0;
                continue;
            }
            LockSupport.parkNanos(this, tickNanos);
            long now = System.nanoTime();
            for (Deadline deadline : open) {
                deadline.expireIfPassed(now);
            }
        }
    }

    @Override
    public void close() {
        stopped = true;
        LockSupport.unpark(watcher);
    }

    /** One call's deadline; closed by the thread that started it. */
    final class Deadline implements AutoCloseable {
        private final Thread waiter;
        private volatile long limitNanos;
        private volatile long lastProgress;
        private boolean expired;
        private boolean closed;

        private Deadline(Thread waiter, long limitNanos) {
            this.waiter = waiter;
            this.limitNanos = limitNanos;
            this.lastProgress = System.nanoTime();
        }

        /** Records progress and sets how long each wait may take from now on. */
        void progress(long nextLimitNanos) {
            lastProgress = System.nanoTime();
            limitNanos = nextLimitNanos;
        }

        /** Records progress under the current limit. */
        void progress() {
            lastProgress = System.nanoTime();
        }

        synchronized boolean expired() {
            return expired;
        }

        private void expireIfPassed(long now) {
            if (now - lastProgress < limitNanos) {
                return;
            }
            synchronized (this) {
                if (!closed && !expired) {
                    expired = true;
                    waiter.interrupt();
                }
            }
        }

        /** Stops the deadline and clears an interrupt it may have raised, so it cannot hit later code. */
        @Override
        public void close() {
            synchronized (this) {
                closed = true;
            }
            open.remove(this);
            if (Thread.currentThread() == waiter) {
                Thread.interrupted();
            }
        }
    }
}
