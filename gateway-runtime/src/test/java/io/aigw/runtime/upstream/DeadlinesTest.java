package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.config.UpstreamTimeouts;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DeadlinesTest {
    private final Deadlines deadlines = new Deadlines(Duration.ofMillis(5));

    @AfterEach
    void close() {
        deadlines.close();
    }

    @Test
    void aPassedDeadlineInterruptsItsThread() {
        Deadlines.Deadline deadline = deadlines.start(TimeUnit.MILLISECONDS.toNanos(50));
        try {
            assertThrows(InterruptedException.class, () -> Thread.sleep(30_000));
            assertTrue(deadline.expired());
        } finally {
            deadline.close();
        }
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void aClosedDeadlineNeverInterrupts() throws InterruptedException {
        deadlines.start(TimeUnit.MILLISECONDS.toNanos(20)).close();
        Thread.sleep(200);
        assertFalse(Thread.currentThread().isInterrupted());
    }

    @Test
    void theWatcherWakesForACallAfterSleeping() throws InterruptedException {
        // Ten idle ticks put the watcher to sleep; a new call must wake it.
        Thread.sleep(200);
        Deadlines.Deadline deadline = deadlines.start(TimeUnit.MILLISECONDS.toNanos(50));
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
                Duration.ofMillis(300), Duration.ofSeconds(60))));
        assertEquals(Duration.ofMillis(1), Deadlines.tickFor(new UpstreamTimeouts(Duration.ofSeconds(10),
                Duration.ofSeconds(60), Duration.ofMillis(5))));
    }
}
