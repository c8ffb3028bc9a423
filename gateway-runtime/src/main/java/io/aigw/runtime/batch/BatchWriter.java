package io.aigw.runtime.batch;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Hands items from request threads to one background thread that writes them in batches: usage
 * records to the database, access log lines to their stream. A request only offers its item to a
 * bounded queue; when the queue is full the item is dropped and counted, so a slow sink never
 * slows down or fails a request. Closing writes whatever is still queued.
 *
 * @param <T> the item written
 */
public final class BatchWriter<T> implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(BatchWriter.class.getName());
    private static final int MAX_BATCH = 500;

    private final String name;
    private final Consumer<List<T>> sink;
    private final long lingerNanos;
    private final BlockingQueue<T> queue;
    private final AtomicLong dropped = new AtomicLong();
    private final Thread writer;
    private volatile boolean closing;

    /**
     * @param name     what is written, for the writer thread's name and warnings ("usage records")
     * @param capacity how many items may wait; more are dropped
     * @param linger   how long the writer waits for more items after the first of a batch, so that a
     *                 trickle of requests still makes batches rather than one write each
     * @param sink     writes one batch; an exception drops that batch, with a warning
     */
    public BatchWriter(String name, int capacity, Duration linger, Consumer<List<T>> sink) {
        this.name = name;
        this.sink = sink;
        this.lingerNanos = linger.toNanos();
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.writer = Thread.ofPlatform().daemon().name("aigw-writer-" + name.replace(' ', '-'))
                .start(this::writeUntilClosed);
    }

    /** Queues an item; never blocks. */
    public void offer(T item) {
        if (!queue.offer(item)) {
            long count = dropped.incrementAndGet();
            if (Long.bitCount(count) == 1) {
                LOG.log(Level.WARNING, "The queue of " + name + " is full; " + count + " dropped so far.");
            }
        }
    }

    /** How many items were dropped because the queue was full or the sink failed. */
    public long dropped() {
        return dropped.get();
    }

    private void writeUntilClosed() {
        List<T> batch = new ArrayList<>(MAX_BATCH);
        while (!closing) {
            try {
                batch.add(queue.take());
                if (lingerNanos > 0 && queue.size() < MAX_BATCH - 1) {
                    TimeUnit.NANOSECONDS.sleep(lingerNanos);
                }
            } catch (InterruptedException e) {
                // close() wakes a writer that waits or lingers; what it holds is written below.
            }
            queue.drainTo(batch, MAX_BATCH - batch.size());
            if (!batch.isEmpty()) {
                write(batch);
            }
        }
    }

    private void write(List<T> batch) {
        try {
            // A copy: the batch list is reused, and a sink may keep what it is given.
            sink.accept(List.copyOf(batch));
        } catch (RuntimeException e) {
            dropped.addAndGet(batch.size());
            LOG.log(Level.WARNING, "Could not write " + batch.size() + " " + name + ": " + e.getMessage());
        }
        batch.clear();
    }

    /** Stops the writer and writes every item still queued. */
    @Override
    public void close() {
        closing = true;
        writer.interrupt();
        try {
            writer.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<T> rest = new ArrayList<>();
        queue.drainTo(rest);
        for (int from = 0; from < rest.size(); from += MAX_BATCH) {
            write(new ArrayList<>(rest.subList(from, Math.min(rest.size(), from + MAX_BATCH))));
        }
    }
}
