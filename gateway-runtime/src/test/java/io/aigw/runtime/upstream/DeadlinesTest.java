package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.config.UpstreamTimeouts;
import java.io.InterruptedIOException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DeadlinesTest {
    /** An end of the call far beyond any test. */
    private static final long NEVER = System.nanoTime() + TimeUnit.DAYS.toNanos(1);
    private final Deadlines deadlines = new Deadlines(Duration.ofMillis(5));

    @AfterEach
    void close() {
        deadlines.close();
    }

    @Test
    void aPassedDeadlineInterruptsItsThread() {
        Deadlines.Deadline deadline = deadlines.start(TimeUnit.MILLISECONDS.toNanos(50), NEVER);
        try {
            assertThrows(InterruptedException.class, () -> Thread.sleep(30_000));
            assertTrue(deadline.expired());
            assertEquals(Deadlines.Reason.SILENT, deadline.reason());
        } finally {
            deadline.close();
        }
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void theEndOfAStopsGracePeriodEndsEveryWaitAndEachCallStartedAfter() {
        Deadlines.Deadline deadline = deadlines.start(TimeUnit.SECONDS.toNanos(30), NEVER);
        deadlines.stopAt(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50));
        try {
            assertThrows(InterruptedException.class, () -> Thread.sleep(30_000));
            assertEquals(Deadlines.Reason.STOPPED, deadline.reason());
        } finally {
            deadline.close();
        }
        Deadlines.Deadline late = deadlines.start(TimeUnit.SECONDS.toNanos(30), NEVER);
        try {
            assertEquals(Deadlines.Reason.STOPPED, late.reason());
            assertTrue(Thread.currentThread().isInterrupted(), "a call started after the grace period must not wait");
        } finally {
            late.close();
        }
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void theCallsEndPassesWhateverItsProgress() {
        Deadlines.Deadline deadline = deadlines.start(TimeUnit.SECONDS.toNanos(30),
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100));
        // Another thread says the call keeps waiting on an upstream that keeps sending, as reads do.
        Thread progress = Thread.ofVirtual().start(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    deadline.waitsOnUpstream();
                } catch (InterruptedIOException e) {
                    return;
                }
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
        });
        try {
            assertThrows(InterruptedException.class, () -> Thread.sleep(30_000));
            assertEquals(Deadlines.Reason.OUT_OF_TIME, deadline.reason());
        } finally {
            progress.interrupt();
            deadline.close();
        }
    }

    @Test
    void timeSpentOutsideAWaitOnTheUpstreamIsNotItsSilence() throws Exception {
        Deadlines.Deadline deadline = deadlines.start(TimeUnit.MILLISECONDS.toNanos(50), NEVER);
        try {
            // The headers came; the call writes to a slow caller for four idle timeouts.
            deadline.progress(TimeUnit.MILLISECONDS.toNanos(50));
            Thread.sleep(200);
            assertFalse(deadline.expired());

            deadline.waitsOnUpstream();
            assertThrows(InterruptedException.class, () -> Thread.sleep(30_000));
            assertEquals(Deadlines.Reason.SILENT, deadline.reason());
        } finally {
            deadline.close();
        }
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void theCallsEndPassingOutsideAWaitFailsItsNextWaitWithoutAnInterrupt() throws Exception {
        Deadlines.Deadline deadline = deadlines.start(TimeUnit.SECONDS.toNanos(30),
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50));
        try {
            deadline.progress();
            Thread.sleep(200);
            assertEquals(Deadlines.Reason.OUT_OF_TIME, deadline.reason());

            assertThrows(InterruptedIOException.class, deadline::waitsOnUpstream);
        } finally {
            deadline.close();
        }
    }

    @Test
    void aCallThatLastsATickStartsWatchingItsCallerOnceAndAQuickOneNever() throws InterruptedException {
        AtomicInteger watchesStarted = new AtomicInteger();
        deadlines.start(TimeUnit.SECONDS.toNanos(30), NEVER).close();
        Deadlines.Deadline slow = deadlines.start(TimeUnit.SECONDS.toNanos(30), NEVER);
        try {
            new Hangup(whenLeft -> watchesStarted.incrementAndGet()).watch(slow);
            for (int i = 0; i < 200 && watchesStarted.get() == 0; i++) {
                Thread.sleep(5);
            }
            Thread.sleep(50);
        } finally {
            slow.close();
        }
        assertEquals(1, watchesStarted.get());
    }

    @Test
    void aCallerThatLeavesEndsTheWaitAtOnceThroughItsHangup() {
        Hangup hangup = new Hangup(whenLeft -> { });
        Deadlines.Deadline deadline = deadlines.start(TimeUnit.SECONDS.toNanos(30), NEVER);
        hangup.watch(deadline);
        Thread.ofVirtual().start(hangup::callerLeft);
        try {
            assertThrows(InterruptedException.class, () -> Thread.sleep(30_000));
            assertEquals(Deadlines.Reason.CALLER_LEFT, deadline.reason());
        } finally {
            deadline.close();
        }
    }

    @Test
    void aDeadlineWatchedAfterTheCallerLeftEndsAtOnce() {
        Hangup hangup = new Hangup(whenLeft -> { });
        hangup.callerLeft();
        Deadlines.Deadline deadline = deadlines.start(TimeUnit.SECONDS.toNanos(30), NEVER);
        try {
            hangup.watch(deadline);
            assertThrows(InterruptedException.class, () -> Thread.sleep(30_000));
            assertEquals(Deadlines.Reason.CALLER_LEFT, deadline.reason());
        } finally {
            deadline.close();
        }
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void aClosedDeadlineNeverInterrupts() throws InterruptedException {
        deadlines.start(TimeUnit.MILLISECONDS.toNanos(20), NEVER).close();
        Thread.sleep(200);
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void theWatcherWakesForACallAfterSleeping() throws InterruptedException {
        // Ten idle ticks put the watcher to sleep; a new call must wake it.
        Thread.sleep(200);
        Deadlines.Deadline deadline = deadlines.start(TimeUnit.MILLISECONDS.toNanos(50), NEVER);
        try {
            assertThrows(InterruptedException.class, () -> Thread.sleep(30_000));
        } finally {
            deadline.close();
        }
    }

    @Test
    void theTickIsATenthOfTheShortestTimeoutWithinBounds() {
        assertEquals(Duration.ofMillis(100), Deadlines.tickFor(UpstreamTimeouts.DEFAULTS));
        assertEquals(Duration.ofMillis(30), Deadlines.tickFor(new UpstreamTimeouts(Duration.ofSeconds(10),
                Duration.ofMillis(300), Duration.ofSeconds(60), Duration.ofMinutes(10))));
        assertEquals(Duration.ofMillis(1), Deadlines.tickFor(new UpstreamTimeouts(Duration.ofSeconds(10),
                Duration.ofSeconds(60), Duration.ofMillis(5), Duration.ofMinutes(10))));
        assertEquals(Duration.ofMillis(20), Deadlines.tickFor(new UpstreamTimeouts(Duration.ofSeconds(10),
                Duration.ofSeconds(60), Duration.ofSeconds(60), Duration.ofMillis(200))));
    }
}
