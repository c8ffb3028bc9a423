package io.aigw.runtime.usage;

import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.UsageRecord;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writes usage records off the request thread, in batches. A request only offers its record to a
 * bounded queue: when the queue is full the record is dropped and counted, so the database can
 * never slow down or fail a request. Closing writes whatever is still queued.
 */
public final class UsageRecorder implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(UsageRecorder.class.getName());
    private static final int MAX_BATCH = 500;

    private final GatewayStore store;
    private final BlockingQueue<UsageRecord> queue;
    private final long flushIntervalNanos;
    private final AtomicLong dropped = new AtomicLong();
    private final Thread writer;
    private volatile boolean closing;

    public UsageRecorder(GatewayStore store, int capacity, Duration flushInterval) {
        this.store = store;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.flushIntervalNanos = flushInterval.toNanos();
        this.writer = Thread.ofPlatform().daemon().name("aigw-usage-writer").start(this::writeUntilClosed);
    }

    /** Queues a record; never blocks. */
    public void record(UsageRecord record) {
        if (!queue.offer(record)) {
            long count = dropped.incrementAndGet();
            if (Long.bitCount(count) == 1) {
                LOG.log(Level.WARNING, "The usage queue is full; " + count + " record(s) dropped so far."
                        + " Raise gateway.usage.queue-size or check the database.");
            }
        }
    }

    /** How many records were dropped because the queue was full or the database failed. */
    public long dropped() {
        return dropped.get();
    }

    private void writeUntilClosed() {
        List<UsageRecord> batch = new ArrayList<>(MAX_BATCH);
        while (!closing) {
            try {
                UsageRecord first = queue.poll(flushIntervalNanos, TimeUnit.NANOSECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                queue.drainTo(batch, MAX_BATCH - 1);
                write(batch);
            } catch (InterruptedException e) {
                // close() interrupts a writer waiting for records; what is queued is written there.
            }
        }
    }

    private void write(List<UsageRecord> batch) {
        try {
            store.recordUsage(batch);
        } catch (RuntimeException e) {
            dropped.addAndGet(batch.size());
            LOG.log(Level.WARNING, "Could not write " + batch.size() + " usage record(s): " + e.getMessage());
        }
        batch.clear();
    }

    /** Stops the writer and writes every record still queued. */
    @Override
    public void close() {
        closing = true;
        writer.interrupt();
        try {
            writer.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<UsageRecord> rest = new ArrayList<>();
        queue.drainTo(rest);
        for (int from = 0; from < rest.size(); from += MAX_BATCH) {
            write(new ArrayList<>(rest.subList(from, Math.min(rest.size(), from + MAX_BATCH))));
        }
    }
}
