package io.aigw.runtime.upstream;

import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Enforces the first-byte and idle timeouts of upstream calls.
 *
 * <p>A socket read timeout cannot change between the headers and the body of one response, but
 * the two limits differ, so a timer does it instead: when a deadline passes it interrupts the
 * virtual thread waiting on the upstream, which closes that socket and ends the wait. Progress
 * costs one volatile write; the timer re-arms itself lazily.
 */
final class Deadlines implements AutoCloseable {
    private final ScheduledThreadPoolExecutor timer;

    Deadlines() {
        timer = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "aigw-upstream-deadlines");
            thread.setDaemon(true);
            return thread;
        });
        timer.setRemoveOnCancelPolicy(true);
    }

    /** Starts a deadline for the current thread that passes after {@code nanos} without progress. */
    Deadline start(long nanos) {
        Deadline deadline = new Deadline(Thread.currentThread(), nanos);
        deadline.arm(nanos);
        return deadline;
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }

    /** One call's deadline; closed by the thread that started it. */
    final class Deadline implements AutoCloseable {
        private final Thread waiter;
        private volatile long limitNanos;
        private volatile long lastProgress;
        private boolean expired;
        private boolean closed;
        private java.util.concurrent.ScheduledFuture<?> check;

        private Deadline(Thread waiter, long limitNanos) {
            this.waiter = waiter;
            this.limitNanos = limitNanos;
            this.lastProgress = System.nanoTime();
        }

        /** Records progress and sets how long each wait may take from now on. */
        synchronized void progress(long nextLimitNanos) {
            lastProgress = System.nanoTime();
            if (nextLimitNanos < limitNanos && check != null) {
                // The armed check would come too late for the shorter limit.
                check.cancel(false);
                limitNanos = nextLimitNanos;
                arm(nextLimitNanos);
            } else {
                limitNanos = nextLimitNanos;
            }
        }

        /** Records progress under the current limit. */
        void progress() {
            lastProgress = System.nanoTime();
        }

        synchronized boolean expired() {
            return expired;
        }

        private synchronized void arm(long delayNanos) {
            if (!closed) {
                check = timer.schedule(this::check, delayNanos, TimeUnit.NANOSECONDS);
            }
        }

        private void check() {
            long remaining = lastProgress + limitNanos - System.nanoTime();
            if (remaining > 0) {
                arm(remaining);
                return;
            }
            synchronized (this) {
                if (!closed) {
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
                if (check != null) {
                    check.cancel(false);
                }
            }
            if (Thread.currentThread() == waiter) {
                Thread.interrupted();
            }
        }
    }
}
