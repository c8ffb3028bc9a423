package io.aigw.runtime.batch;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Hands items from request threads to one background thread that writes them in batches: usage
 * records to the database, access log lines to their stream. A request only offers its item to a
 * bounded queue; when the queue is full the item is dropped and counted, so a slow sink never
 * slows down or fails a request. Closing writes whatever is still queued.
 *
 * <p>A batch the sink fails to write with a failure its {@link Retry} names (a database that is
 * down) is kept and written again after a pause, while new items wait behind it up to the same
 * bound; any other failure drops the batch. Each episode (the sink failing, the queue overflowing)
 * is logged when it starts and when it ends, not per item.
 *
 * <p>The queue takes no lock. With a lock shared by the requests and the writer (as in
 * {@code ArrayBlockingQueue}), the writer preempted while holding it made every request that
 * finished meanwhile queue up behind it; the requests are virtual threads, each handed the lock in
 * turn only after a trip through the scheduler, and the writer, queued behind them for its next
 * batch, waited seconds while the queue filled and dropped items.
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
    private final Retry retry;
    private final Drops onDropped;
    private final Queue<T> queue = new ConcurrentLinkedQueue<>();
    /**
     * Items offered and not yet written or dropped, a batch in the writer's hands included: the
     * bound, which the queue cannot count cheaply.
     */
    private final AtomicInteger queued = new AtomicInteger();
    private final AtomicLong dropped = new AtomicLong();
    /** Set by the first item the full queue drops, cleared (with a summary) once the queue is empty. */
    private final AtomicBoolean overflowing = new AtomicBoolean();
    private final AtomicLong droppedWhileFull = new AtomicLong();
    /** When the sink began failing with a failure worth a retry; 0 while it writes. Writer's own. */
    private long failingSince;
    /** The batch being written, kept while the sink cannot take it. */
    private final List<T> batch = new ArrayList<>(MAX_BATCH);
    /**
     * Held while items move from the queue into {@link #batch} and while the batch is let go of, and
     * by {@link #forEachUnwritten}: never by an offer.
     */
    private final ReentrantLock handOver = new ReentrantLock();
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
        this(name, capacity, linger, sink, Retry.NEVER, (reason, count) -> { });
    }

    /**
     * @param sink      writes one batch; an exception that {@code retry} names keeps the batch for
     *                  another try, any other drops it
     * @param onDropped told how many items were just dropped and why, for a metric
     */
    public BatchWriter(String name, int capacity, Duration linger, Consumer<List<T>> sink, Retry retry,
                       Drops onDropped) {
        this.name = name;
        this.sink = sink;
        this.lingerNanos = linger.toNanos();
        this.capacity = capacity;
        this.retry = retry;
        this.onDropped = onDropped;
        this.writer = Thread.ofPlatform().daemon().name("aigw-writer-" + name.replace(' ', '-'))
                .start(this::writeUntilClosed);
    }

    /**
     * When a failed batch is worth writing again.
     *
     * @param pause how long to wait before the next try
     * @param when  which failures of the sink are passing ones
     */
    public record Retry(Duration pause, Predicate<RuntimeException> when) {
        /** Every failure drops its batch. */
        public static final Retry NEVER = new Retry(Duration.ZERO, failure -> false);
    }

    /** Why items were dropped. */
    public enum DropReason {
        /** The queue was full. */
        QUEUE_FULL,
        /** The sink failed with a failure its {@link Retry} names, on the last try: at close. */
        SINK_UNAVAILABLE,
        /** The sink failed otherwise. */
        SINK_FAILED
    }

    /** Told of each drop, for a metric. */
    @FunctionalInterface
    public interface Drops {
        void dropped(DropReason reason, long count);
    }

    /** Queues an item; never blocks. */
    public void offer(T item) {
        if (queued.incrementAndGet() > capacity) {
            queued.decrementAndGet();
            if (overflowing.compareAndSet(false, true)) {
                LOG.log(Level.WARNING, "The queue of " + name + " is full (" + capacity + "): new ones are dropped,"
                        + " and counted, until it has room again.");
            }
            droppedWhileFull.incrementAndGet();
            drop(DropReason.QUEUE_FULL, 1);
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
     * core for a whole batch while a request that had become ready waited; but on a saturated core
     * a writer that gave way at every step fell further behind until its queue overflowed.
     */
    public static void giveWay(int batchSize) {
        if (batchSize < MAX_BATCH / 2) {
            Thread.yield();
        }
    }

    /**
     * Passes {@code action} every item offered before this call and not yet written or dropped, a
     * batch the sink is writing included (such an item may be written by then: counted twice, never
     * missed, by a caller that reads what was written after this).
     */
    public void forEachUnwritten(Consumer<? super T> action) {
        handOver.lock();
        try {
            batch.forEach(action);
            queue.forEach(action);
        } finally {
            handOver.unlock();
        }
    }

    /** How many items were dropped because the queue was full or the sink failed. */
    public long dropped() {
        return dropped.get();
    }

    private void drop(DropReason reason, long count) {
        dropped.addAndGet(count);
        onDropped.dropped(reason, count);
    }

    private void writeUntilClosed() {
        while (!closing) {
            if (!batch.isEmpty()) {
                // The sink could not take it: offers keep queueing meanwhile, up to the bound.
                LockSupport.parkNanos(this, retry.pause().toNanos());
                if (!closing) {
                    write(false);
                }
                continue;
            }
            if (queued.get() == 0) {
                endOverflow();
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
            takeBatch();
            if (!batch.isEmpty()) {
                write(false);
            }
        }
    }

    /** Tops {@link #batch} up with queued items, to a batch's size at most. */
    private void takeBatch() {
        handOver.lock();
        try {
            T item;
            while (batch.size() < MAX_BATCH && (item = queue.poll()) != null) {
                batch.add(item);
            }
        } finally {
            handOver.unlock();
        }
    }

    /**
     * Writes {@link #batch}: cleared when written or dropped, kept when the sink failed in a way
     * worth another try, unless this is the {@code last} try.
     */
    private void write(boolean last) {
        try {
            // A copy, as the batch list is reused and a sink may keep it; always of one class (List.copyOf
            // has classes of its own for one and two items), so that a sink's loops compiled under full
            // batches are not thrown away and compiled again when the load falls to single records.
            sink.accept(Collections.unmodifiableList(new ArrayList<>(batch)));
            if (failingSince != 0) {
                LOG.log(Level.INFO, "Writing " + name + " again, after " + TimeUnit.NANOSECONDS.toSeconds(
                        System.nanoTime() - failingSince) + " s of failures.");
                failingSince = 0;
            }
        } catch (RuntimeException e) {
            boolean passing = retry.when().test(e);
            if (!last && passing) {
                if (failingSince == 0) {
                    failingSince = System.nanoTime();
                    LOG.log(Level.WARNING, "Could not write " + batch.size() + " " + name + "; they wait in memory"
                            + " (" + capacity + " at most) and are tried again every " + retry.pause().toMillis()
                            + " ms: " + e.getMessage());
                }
                return;
            }
            drop(passing ? DropReason.SINK_UNAVAILABLE : DropReason.SINK_FAILED, batch.size());
            LOG.log(Level.WARNING, "Could not write " + batch.size() + " " + name + ", dropped: " + e.getMessage());
        } catch (Error e) {
            // Thrown on, it would end the writer and leave every later item queued, unwritten and
            // uncounted. A driver's failed assertion under -ea was one (pgjdbc before 42.7.12, issue 1458).
            drop(DropReason.SINK_FAILED, batch.size());
            LOG.log(Level.ERROR, "Could not write " + batch.size() + " " + name + ", dropped", e);
        }
        handOver.lock();
        try {
            queued.addAndGet(-batch.size());
            batch.clear();
        } finally {
            handOver.unlock();
        }
    }

    /** Once the queue is empty again after it overflowed, says how many items it dropped meanwhile. */
    private void endOverflow() {
        if (overflowing.compareAndSet(true, false)) {
            LOG.log(Level.WARNING, droppedWhileFull.getAndSet(0) + " " + name + " were dropped while the queue"
                    + " was full.");
        }
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
        // The writer has stopped: its batch, if it kept one, and the queue are written once more.
        for (takeBatch(); !batch.isEmpty(); takeBatch()) {
            write(true);
        }
        endOverflow();
    }
}
