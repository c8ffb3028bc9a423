package io.aigw.runtime.limits;

import io.aigw.runtime.batch.BatchWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;

/**
 * The adjustments of {@link RedisLimiter}'s reservations as requests settle or release them, sent
 * off the requests' threads: a request queues its adjustment and goes on, and one background writer
 * sends everything queued meanwhile in one {@link RedisScripts#ADJUST} call, the adjustments of one
 * window and spend count added into one. A request's own path thus costs one round trip to Redis,
 * its reservation.
 *
 * <p>Until an adjustment lands, Redis holds the reservation's estimates: more tokens and cost than
 * were used, never less (a released request stays counted a moment longer). That is the side of
 * caution, and short: an adjustment waits {@link #LINGER}, then for the call in flight ahead of it
 * and its own, each at most {@code gateway.limits.redis-timeout}. When Redis fails a call, its
 * adjustments are dropped and counted once in {@code gateway_limit_store_failures_total}; so are
 * those a full queue turns away. Either way the estimates stay counted until their window or period
 * ends, as before.
 */
final class RedisSettlements implements AutoCloseable {
    /** Adjustments that may wait while Redis is slow; a request queues one at most. */
    private static final int CAPACITY = 65_536;
    /**
     * How long the writer gathers after an adjustment arrives. Under load a batch gathers while the
     * call ahead of it is in flight; a trickle would otherwise cost a call (and a wake-up of the
     * writer) per request, as much of the gateway's core as the reservation itself.
     */
    private static final Duration LINGER = Duration.ofMillis(2);

    private final BiConsumer<List<String>, List<String>> adjust;
    private final Runnable storeFailed;
    private final BatchWriter<Adjustment> writer;
    /** Adjustments queued, and sent or dropped: {@link #awaitSent} waits for the second to reach the first. */
    private final AtomicLong queued = new AtomicLong();
    private final AtomicLong done = new AtomicLong();

    /**
     * @param adjust      runs {@link RedisScripts#ADJUST} with its KEYS and ARGV
     * @param storeFailed counts a batch Redis could not take, or adjustments dropped
     */
    RedisSettlements(BiConsumer<List<String>, List<String>> adjust, Runnable storeFailed) {
        this.adjust = adjust;
        this.storeFailed = storeFailed;
        this.writer = new BatchWriter<>("rate-limit adjustments", CAPACITY, LINGER, this::send,
                BatchWriter.Retry.NEVER, (reason, count) -> dropped(count));
    }

    /**
     * Where an adjustment applies: the window's and the spend's hashes, the window's start and the
     * spend's generation the reservation was made in ({@code ""} without a budget).
     */
    record Slot(String window, String spend, long windowStart, String generation) {
    }

    /**
     * Requests and tokens to add to a slot's window (negative to give back), and cost to add to its
     * spend: {@code cost} while the spend is the generation reserved in, {@code wholeCost} when it was
     * rebuilt since.
     */
    record Adjustment(Slot slot, long requests, long tokens, long cost, long wholeCost) {
        Adjustment plus(Adjustment other) {
            return new Adjustment(slot, requests + other.requests, tokens + other.tokens, cost + other.cost,
                    wholeCost + other.wholeCost);
        }
    }

    /** Queues it; never blocks. */
    void add(Adjustment adjustment) {
        queued.incrementAndGet();
        writer.offer(adjustment);
    }

    /**
     * Waits until every adjustment queued before this call was sent or dropped, {@code timeout} at
     * most: before a spend is rebuilt from the usage records, so that an adjustment of a request whose
     * record the rebuild counts does not add its cost to the rebuilt count again.
     */
    void awaitSent(Duration timeout) {
        long target = queued.get();
        long until = System.nanoTime() + timeout.toNanos();
        while (done.get() < target && System.nanoTime() - until < 0) {
            LockSupport.parkNanos(100_000);
        }
    }

    private void send(List<Adjustment> batch) {
        Map<Slot, Adjustment> bySlot = new LinkedHashMap<>();
        for (Adjustment adjustment : batch) {
            bySlot.merge(adjustment.slot(), adjustment, Adjustment::plus);
        }
        List<String> keys = new ArrayList<>(bySlot.size() * 2);
        List<String> args = new ArrayList<>(bySlot.size() * 6);
        for (Adjustment adjustment : bySlot.values()) {
            Slot slot = adjustment.slot();
            keys.add(slot.window());
            keys.add(slot.spend());
            args.add(Long.toString(slot.windowStart()));
            args.add(Long.toString(adjustment.requests()));
            args.add(Long.toString(adjustment.tokens()));
            args.add(slot.generation());
            args.add(Long.toString(adjustment.cost()));
            args.add(Long.toString(adjustment.wholeCost()));
        }
        try {
            adjust.accept(keys, args);
        } catch (RuntimeException e) {
            // Caught here, not by the writer, which would log each failed batch: the reservations
            // keep their estimates, and the outage is told by the reservations that fail meanwhile.
            storeFailed.run();
        } finally {
            done.addAndGet(batch.size());
        }
    }

    private void dropped(long count) {
        storeFailed.run();
        done.addAndGet(count);
    }

    /** Sends what is still queued. */
    @Override
    public void close() {
        writer.close();
    }
}
