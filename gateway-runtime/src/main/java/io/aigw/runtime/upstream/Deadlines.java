package io.aigw.runtime.upstream;

import io.aigw.runtime.config.UpstreamTimeouts;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Enforces the first-byte, idle and total timeouts of upstream calls, and ends the call of a caller
 * who left.
 *
 * <p>A socket read timeout cannot change between the headers and the body of one response, but
 * the two limits differ, so a watcher thread does it instead: when a deadline passes it interrupts
 * the virtual thread waiting on the upstream, which closes that socket and ends the wait. A caller
 * who leaves ends the wait the same way, at once ({@link Deadline#callerLeft()}).
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
        long shortest = Math.min(Math.min(timeouts.firstByte().toNanos(), timeouts.idle().toNanos()),
                timeouts.total().toNanos());
        return Duration.ofNanos(Math.clamp(shortest / 10, MIN_TICK_NANOS, MAX_TICK_NANOS));
    }

    /**
     * Starts a deadline for the current thread that passes after {@code nanos} without progress, or
     * at {@code endsAt} ({@link System#nanoTime()}) whatever the progress.
     */
    Deadline start(long nanos, long endsAt) {
        Deadline deadline = new Deadline(Thread.currentThread(), nanos, endsAt);
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

    /** Why a deadline ended the wait on its upstream. */
    enum Reason {
        /** No progress within the first-byte or idle timeout. */
        SILENT,
        /** The call ran past the total timeout. */
        OUT_OF_TIME,
        /** The caller left. */
        CALLER_LEFT
    }

    /** One call's deadline; closed by the thread that started it. */
    final class Deadline implements AutoCloseable {
        private final Thread waiter;
        private final long started;
        private final long endsAt;
        private volatile long limitNanos;
        private volatile long lastProgress;
        private volatile Runnable whenSlow;
        /** Read and written by the watcher only. */
        private boolean slowTold;
        private Reason reason;
        private boolean closed;

        private Deadline(Thread waiter, long limitNanos, long endsAt) {
            this.waiter = waiter;
            this.limitNanos = limitNanos;
            this.endsAt = endsAt;
            this.started = System.nanoTime();
            this.lastProgress = started;
        }

        /**
         * Runs {@code action} once, on the watcher's thread, when the call has lasted a tick: what
         * is worth doing for a slow call only.
         */
        void onSlowCall(Runnable action) {
            whenSlow = action;
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
            return reason != null;
        }

        /** Why the deadline ended the wait, or null while it has not. */
        synchronized Reason reason() {
            return reason;
        }

        /** Ends the wait at once, from any thread: the caller is gone. */
        void callerLeft() {
            expire(Reason.CALLER_LEFT);
        }

        private void expireIfPassed(long now) {
            if (now - endsAt >= 0) {
                expire(Reason.OUT_OF_TIME);
            } else if (now - lastProgress >= limitNanos) {
                expire(Reason.SILENT);
            } else if (!slowTold && now - started >= tickNanos && whenSlow != null) {
                slowTold = true;
                whenSlow.run();
            }
        }

        private synchronized void expire(Reason why) {
            if (!closed && reason == null) {
                reason = why;
                waiter.interrupt();
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
