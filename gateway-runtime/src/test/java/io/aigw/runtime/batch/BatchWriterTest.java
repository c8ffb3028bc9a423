package io.aigw.runtime.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
