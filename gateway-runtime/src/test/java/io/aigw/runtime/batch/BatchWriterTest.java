package io.aigw.runtime.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Requests hand over items without ever waiting on the sink; closing writes what is queued. */
public final class BatchWriterTest {

    @Test
    void aStuckSinkNeverBlocksTheCallerAndTheOverflowIsCounted() throws InterruptedException {
        CountDownLatch sinkMayFinish = new CountDownLatch(1);
        CountDownLatch sinkEntered = new CountDownLatch(1);
        List<Integer> written = new CopyOnWriteArrayList<>();
        BatchWriter<Integer> writer = new BatchWriter<>("numbers", 10, Duration.ZERO, batch -> {
            sinkEntered.countDown();
            awaitQuietly(sinkMayFinish);
            written.addAll(batch);
        });
        writer.offer(0);
        sinkEntered.await(5, TimeUnit.SECONDS);

        // The sink is stuck with one item: nine more fit in the bound of ten, the other 990 are
        // dropped, and none waits.
        assertTimeoutPreemptively(Duration.ofSeconds(2),
                () -> IntStream.range(1, 1000).forEach(writer::offer));
        assertEquals(990, writer.dropped());

        sinkMayFinish.countDown();
        writer.close();
        assertEquals(10, written.size());
    }

    @Test
    void closingWritesEverythingStillQueuedInBatches() {
        List<List<Integer>> batches = new CopyOnWriteArrayList<>();
        BatchWriter<Integer> writer = new BatchWriter<>("numbers", 5000, Duration.ofSeconds(10), batches::add);
        IntStream.range(0, 1200).forEach(writer::offer);

        writer.close();

        assertEquals(1200, batches.stream().mapToInt(List::size).sum());
        assertEquals(0, writer.dropped());
        batches.forEach(batch -> assertEquals(true, batch.size() <= 500, "batches hold at most 500 items"));
    }

    @Test
    void anIdleWriterWakesForTheNextItem() throws InterruptedException {
        List<Integer> written = new CopyOnWriteArrayList<>();
        try (BatchWriter<Integer> writer = new BatchWriter<>("numbers", 10, Duration.ofMillis(1), written::addAll)) {
            for (int item = 0; item < 50; item++) {
                writer.offer(item);
                // Written without close(): the writer, idle again after each item, was woken for it.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (written.size() <= item && System.nanoTime() < deadline) {
                    Thread.sleep(1);
                }
                assertEquals(item + 1, written.size());
            }
        }
    }

    @Test
    void itemsOfferedFromManyVirtualThreadsAreEachWrittenOnce() throws InterruptedException {
        List<Integer> written = new CopyOnWriteArrayList<>();
        BatchWriter<Integer> writer = new BatchWriter<>("numbers", 100_000, Duration.ofMillis(1), written::addAll);
        try (var threads = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int thread = 0; thread < 200; thread++) {
                int first = thread * 250;
                threads.submit(() -> IntStream.range(first, first + 250).forEach(writer::offer));
            }
        }
        writer.close();

        assertEquals(0, writer.dropped());
        assertEquals(IntStream.range(0, 50_000).boxed().toList(), written.stream().sorted().toList());
    }

    @Test
    void aBatchTheSinkCannotTakeNowWaitsAndIsWrittenOnceWhenItCan() throws InterruptedException {
        AtomicBoolean down = new AtomicBoolean(true);
        CountDownLatch triedTwice = new CountDownLatch(2);
        List<Integer> written = new CopyOnWriteArrayList<>();
        Map<BatchWriter.DropReason, Long> reportedDrops = new ConcurrentHashMap<>();
        BatchWriter<Integer> writer = new BatchWriter<>("numbers", 5, Duration.ZERO, batch -> {
            triedTwice.countDown();
            if (down.get()) {
                throw new IllegalStateException("the database is down");
            }
            written.addAll(batch);
        }, new BatchWriter.Retry(Duration.ofMillis(1), IllegalStateException.class::isInstance),
                (reason, count) -> reportedDrops.merge(reason, count, Long::sum));

        writer.offer(0);
        assertTrue(triedTwice.await(10, TimeUnit.SECONDS), "the failed batch is tried again");
        // The batch kept counts in the bound of five: four more wait, the other three are dropped.
        IntStream.range(1, 8).forEach(writer::offer);
        down.set(false);
        writer.close();

        assertEquals(List.of(0, 1, 2, 3, 4), written.stream().sorted().toList());
        assertEquals(3, writer.dropped());
        assertEquals(Map.of(BatchWriter.DropReason.QUEUE_FULL, 3L), reportedDrops);
    }

    @Test
    void aBatchFailingOtherwiseThanTheRetryNamesIsDroppedAndCounted() {
        Map<BatchWriter.DropReason, Long> reportedDrops = new ConcurrentHashMap<>();
        BatchWriter<Integer> writer = new BatchWriter<>("numbers", 100, Duration.ofSeconds(10), batch -> {
            throw new IllegalArgumentException("a value the database refuses");
        }, new BatchWriter.Retry(Duration.ofMillis(1), IllegalStateException.class::isInstance),
                (reason, count) -> reportedDrops.merge(reason, count, Long::sum));
        IntStream.range(0, 7).forEach(writer::offer);

        writer.close();

        assertEquals(7, writer.dropped());
        assertEquals(Map.of(BatchWriter.DropReason.SINK_FAILED, 7L), reportedDrops);
    }

    @Test
    void anErrorFromTheSinkDropsItsBatchAndTheWriterGoesOn() throws InterruptedException {
        List<Integer> written = new CopyOnWriteArrayList<>();
        CountDownLatch failed = new CountDownLatch(1);
        BatchWriter<Integer> writer = new BatchWriter<>("numbers", 100, Duration.ZERO, batch -> {
            if (batch.contains(0)) {
                failed.countDown();
                throw new AssertionError("a driver's assertion");
            }
            written.addAll(batch);
        });
        writer.offer(0);
        assertTrue(failed.await(10, TimeUnit.SECONDS));

        writer.offer(1);
        writer.close();

        assertEquals(List.of(1), written);
        assertEquals(1, writer.dropped());
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
