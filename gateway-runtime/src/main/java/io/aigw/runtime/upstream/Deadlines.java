package io.aigw.runtime.upstream;

import io.aigw.runtime.config.UpstreamTimeouts;
import java.io.InterruptedIOException;
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
 * <p>Only waits on the upstream are timed as its silence: while the call writes to its caller (a
 * slow reader holds that write up), the upstream is not silent, and an interrupt then would close
 * the caller's socket instead. How long a caller may hold a write is the transport's to bound
 * ({@code gateway.timeouts.caller-send}). A total timeout that passes during such a write ends the
 * call at its next wait on the upstream, which then fails at once.
 *
 * <p>The watcher looks at every open deadline once per tick rather than keeping a timer per call:
 * with a timer queue, each call that found the queue empty (every call, at one connection) woke
 * the timer thread to re-arm it, a context switch per request on a gateway's busiest path. A read
 * of an upstream costs an uncontended lock and a few volatile writes. A deadline passes at most one
 * tick late; with nothing to watch for a few ticks the watcher sleeps until the next call starts.
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
    /** Whether the gateway is stopping, and so {@link #graceEndsAt} holds. */
    private volatile boolean stopping;
    /** When the stop's grace period ends ({@link System#nanoTime()}): every deadline passes then. */
    private volatile long graceEndsAt;

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
        if (graceOver(System.nanoTime())) {
            deadline.expire(Reason.STOPPED);
        }
        return deadline;
    }

    /**
     * The gateway stops: every deadline open at {@code endsAt} ({@link System#nanoTime()}), the end
     * of its grace period, passes then, and one started later passes at once. The gateway ends its
     * own waits on the upstreams, so that the calls can still answer their callers before the
     * server closes the connections.
     */
    void stopAt(long endsAt) {
        graceEndsAt = endsAt;
        stopping = true;
    }

    private boolean graceOver(long now) {
        return stopping && now - graceEndsAt >= 0;
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
            boolean graceOver = graceOver(now);
            for (Deadline deadline : open) {
                if (graceOver) {
                    deadline.expire(Reason.STOPPED);
                } else {
                    deadline.expireIfPassed(now);
                }
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
        CALLER_LEFT,
        /** The grace period of the gateway's stop ran out. */
        STOPPED
    }

    /** One call's deadline; closed by the thread that started it. */
    final class Deadline implements AutoCloseable {
        private final Thread waiter;
        private final long started;
        private final long endsAt;
        private volatile long limitNanos;
        /** When the current wait on the upstream began: meaningful while {@link #waiting}. */
        private volatile long waitStarted;
        /** Whether the call waits on the upstream (its headers, a read of its body); from the start. */
        private volatile boolean waiting = true;
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
            this.waitStarted = started;
        }

        /**
         * Runs {@code action} once, on the watcher's thread, when the call has lasted a tick: what
         * is worth doing for a slow call only.
         */
        void onSlowCall(Runnable action) {
            whenSlow = action;
        }

        /**
         * Records progress and sets how long each wait may take from now on; the call waits on the
         * upstream no longer, until {@link #waitsOnUpstream()}.
         */
        void progress(long nextLimitNanos) {
            limitNanos = nextLimitNanos;
            waiting = false;
        }

        /**
         * Records progress under the current limit; the call waits on the upstream no longer. No
         * time is taken: silence is timed only while the call waits, from the start of each wait.
         */
        void progress() {
            waiting = false;
        }

        /**
         * The call is about to wait on the upstream: its silence is timed from now.
         *
         * @throws InterruptedIOException when the deadline passed while the call did something else
         */
        synchronized void waitsOnUpstream() throws InterruptedIOException {
            if (reason != null) {
                throw new InterruptedIOException("The upstream call's deadline passed: " + reason);
            }
            waitStarted = System.nanoTime();
            waiting = true;
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
            } else if (waiting && now - waitStarted >= limitNanos) {
                expireIfSilent(now);
            } else if (!slowTold && now - started >= tickNanos && whenSlow != null) {
                slowTold = true;
                whenSlow.run();
            }
        }

        /** Looked at again under the lock: the wait seen as silent may have ended and another begun. */
        private synchronized void expireIfSilent(long now) {
            if (waiting && now - waitStarted >= limitNanos) {
                expire(Reason.SILENT);
            }
        }

        /**
         * Ends the call. The waiter is interrupted only while it waits on the upstream, or for a
         * caller who left (whose socket the interrupt may close: it is gone); otherwise its next
         * wait on the upstream fails ({@link #waitsOnUpstream()}).
         */
        private synchronized void expire(Reason why) {
            if (!closed && reason == null) {
                reason = why;
                if (waiting || why == Reason.CALLER_LEFT) {
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
