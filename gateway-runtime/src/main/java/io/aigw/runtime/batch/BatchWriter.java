package io.aigw.runtime.batch;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Hands items from request threads to one background thread that writes them in batches: usage
 * records to the database, access log lines to their stream. A request only offers its item to a
 * bounded queue; when the queue is full the item is dropped and counted, so a slow sink never
 * slows down or fails a request. Closing writes whatever is still queued.
 *
 * <p>The queue takes no lock. With a lock shared by the requests and the writer (as in
 * {@code ArrayBlockingQueue}), the writer preempted while holding it made every request that
 * finished meanwhile queue up behind it; the requests are virtual threads, each handed the lock in
 * turn only after a trip through the scheduler, and the writer, queued behind them for its next
 * batch, waited up to 4 s while the queue filled and dropped items (BENCHMARKS.md, "Twelfth round").
 *
 * @param <T> the item written
 */
public final class BatchWriter<T> implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(BatchWriter.class.getName());
    private static final int MAX_BATCH = 500;

    private final String name;
    private final Consumer<List<T>> sink;
    private final long lingerNanos;
    private final int capacity;
    private final Queue<T> queue = new ConcurrentLinkedQueue<>();
    /** Items offered and not yet taken by the writer: the queue's bound, which the queue cannot count cheaply. */
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    private final Thread writer;
    /** Set by the writer before it parks on an empty queue: only then does an offer have to wake it. */
    private volatile boolean writerIdle;
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
        this.capacity = capacity;
        this.writer = Thread.ofPlatform().daemon().name("aigw-writer-" + name.replace(' ', '-'))
                .start(this::writeUntilClosed);
    }

    /** Queues an item; never blocks. */
    public void offer(T item) {
        if (queued.incrementAndGet() > capacity) {
            queued.decrementAndGet();
            long count = dropped.incrementAndGet();
            if (Long.bitCount(count) == 1) {
                LOG.log(Level.WARNING, "The queue of " + name + " is full; " + count + " dropped so far.");
            }
            return;
        }
        queue.add(item);
        // Read after the count went up: a writer that saw no item before then has already said it is idle.
        if (writerIdle) {
            LockSupport.unpark(writer);
        }
    }

    /**
     * Called by a sink between steps of writing a batch of {@code batchSize} items: lets the
     * threads waiting for the core have it first, unless the batch is so large that the writer is
     * behind. The writer shares the gateway's core with the requests, and the kernel left it the
     * core for a whole batch (0.7 ms for 100 usage records) while a request that had become ready
     * waited; but on a saturated core a writer that gave way at every step fell further behind
     * until its queue overflowed (BENCHMARKS.md, "Thirteenth round").
     */
    public static void giveWay(int batchSize) {
        if (batchSize < MAX_BATCH / 2) {
            Thread.yield();
        }
    }

    /** How many items were dropped because the queue was full or the sink failed. */
    public long dropped() {
        return dropped.get();
    }

    private void writeUntilClosed() {
        List<T> batch = new ArrayList<>(MAX_BATCH);
        while (!closing) {
            if (queued.get() == 0) {
                writerIdle = true;
                // Checked again once idle is visible, so an item offered in between is not missed.
                if (queued.get() == 0 && !closing) {
                    LockSupport.park(this);
                }
                writerIdle = false;
                continue;
            }
            if (lingerNanos > 0 && queued.get() < MAX_BATCH) {
                // close() wakes a lingering writer; what is queued is written below or by close().
                LockSupport.parkNanos(this, lingerNanos);
            }
            takeBatch(batch);
            if (!batch.isEmpty()) {
                write(batch);
            }
        }
    }

    /** Moves up to a batch of queued items into {@code batch}, which is empty. */
    private void takeBatch(List<T> batch) {
        T item;
        while (batch.size() < MAX_BATCH && (item = queue.poll()) != null) {
            batch.add(item);
        }
        queued.addAndGet(-batch.size());
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
        LockSupport.unpark(writer);
        try {
            writer.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<T> batch = new ArrayList<>(MAX_BATCH);
        for (takeBatch(batch); !batch.isEmpty(); takeBatch(batch)) {
            write(batch);
        }
    }
}
