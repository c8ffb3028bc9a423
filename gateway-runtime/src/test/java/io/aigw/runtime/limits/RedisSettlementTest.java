package io.aigw.runtime.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.batch.BatchWriter;
import io.aigw.runtime.config.StoreFailurePolicy;
import io.aigw.runtime.observe.GatewayMetrics;
import io.aigw.runtime.pricing.Cost;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.store.BudgetPeriod;
import io.aigw.runtime.store.UsageRecord;
import io.aigw.runtime.testing.LocalRedis;
import io.aigw.runtime.testing.PrivateRedis;
import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.Metrics;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.RedisClient;

/**
 * {@link RedisLimiter}'s settlements, sent off the request's thread, as Redis then holds them: every
 * one lands by the time the limiter has closed, a spend rebuilt after Redis lost it counts the usage
 * records still queued for the database, and a request reserved before midnight settles in the day
 * it was reserved in. Against the shared Redis under this test's own prefix, or a private Redis
 * where it is stopped.
 */
final class RedisSettlementTest {
    private static final GatewayMetrics METRICS = new GatewayMetrics(Metrics::globalRegistry, Set.of());
    private static final Limits LIMITS = new Limits(1_000, 1_000_000);
    private static final PriceBook PRICES = PriceBook.of(Map.of());
    private static final long DAY_MILLIS = 86_400_000L;

    private LocalRedis redis;

    @BeforeEach
    void prefix() {
        redis = LocalRedis.prefix();
    }

    @AfterEach
    void removeKeys() {
        redis.close();
    }

    @Test
    void everySettlementAndReleaseHasLandedInRedisOnceTheLimiterHasClosed() {
        BudgetClaim claim = new BudgetClaim(1_000_000_000L, "life", 0, 0, 1_000);
        try (RedisLimiter limiter = limiter(URI.create(LocalRedis.URL), (key, since) -> 0)) {
            List<Reservation> held = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                held.add(assertInstanceOf(Decision.Admitted.class, limiter.reserve("k", LIMITS, 1_000, claim))
                        .reservation());
            }
            for (int i = 0; i < 100; i++) {
                if (i < 20) {
                    held.get(i).release();
                } else {
                    held.get(i).settle(10, 100);
                }
            }
        }

        try (RedisClient client = RedisClient.create(LocalRedis.URL)) {
            Map<String, String> window = client.hgetAll(redis.name() + "k");
            assertEquals("80", window.get("r"), window.toString());
            assertEquals("800", window.get("k"), window.toString());
            assertEquals("8000", client.hget(redis.name() + "k:spend:life", "n"));
        }
    }

    @Test
    void aSpendRebuiltAfterRedisLostItCountsTheUsageRecordsStillQueuedForTheDatabase() throws Exception {
        CountDownLatch databaseDown = new CountDownLatch(1);
        Instant now = Instant.now();
        BudgetClaim claim = BudgetClaim.in(BudgetPeriod.DAY, now, 100, 30);
        BatchWriter<UsageRecord> queue = new BatchWriter<>("usage records", 100, Duration.ZERO,
                batch -> await(databaseDown));
        try {
            // The first is in the writer's hands, the others wait behind it.
            queue.offer(record(now, "k", 50));
            queue.offer(record(now, "another key", 1_000));
            queue.offer(record(Instant.ofEpochMilli(claim.periodStartMillis() - 1), "k", 1_000));
            queue.offer(record(now, "k", 5));
            try (RedisLimiter limiter = limiter(URI.create(LocalRedis.URL), new QueuedSpend((key, since) -> 20,
                    queue))) {
                Decision refused = limiter.reserve("k", LIMITS, 10, claim);

                assertEquals("budget", assertInstanceOf(Decision.Refused.class, refused).limit());
                assertEquals(75, ((Decision.Refused) refused).quota().spentNanos());
            }
            try (RedisClient client = RedisClient.create(LocalRedis.URL)) {
                assertEquals("75", client.hget(redis.name() + "k:spend:" + claim.period(), "n"));
            }
        } finally {
            databaseDown.countDown();
            queue.close();
        }
    }

    @Test
    void aRequestReservedBeforeMidnightAndSettledAfterItSettlesInTheDayItWasReservedIn() {
        Instant midnight = BudgetPeriod.DAY.end(Instant.now()).orElseThrow();
        BudgetClaim before = BudgetClaim.in(BudgetPeriod.DAY, midnight.minusMillis(100), 1_000_000, 1_000);
        BudgetClaim after = BudgetClaim.in(BudgetPeriod.DAY, midnight.plusMillis(100), 1_000_000, 1_000);
        assertEquals(DAY_MILLIS, after.periodStartMillis() - before.periodStartMillis());

        try (RedisLimiter limiter = limiter(URI.create(LocalRedis.URL), (key, since) -> 0)) {
            Reservation lateToday = admitted(limiter.reserve("k", LIMITS, 10, before));
            admitted(limiter.reserve("k", LIMITS, 10, after));
            lateToday.settle(10, 400);
        }

        try (RedisClient client = RedisClient.create(LocalRedis.URL)) {
            assertEquals("400", client.hget(redis.name() + "k:spend:" + before.period(), "n"));
            assertEquals("1000", client.hget(redis.name() + "k:spend:" + after.period(), "n"));
        }
        LocalLimiter local = new LocalLimiter((key, since) -> 0);
        Reservation lateToday = admitted(local.reserve("k", LIMITS, 10, before));
        admitted(local.reserve("k", LIMITS, 10, after));
        lateToday.settle(10, 400);
        Decision.Admitted third = assertInstanceOf(Decision.Admitted.class, local.reserve("k", LIMITS, 10, after));
        assertEquals(2_000, third.quota().orElseThrow().spentNanos(), "tomorrow's count holds tomorrow's two");
    }

    @Test
    void settlementsRedisCannotTakeAreCountedAsStoreFailuresAndTheLimiterStillCloses() {
        try (PrivateRedis stopped = PrivateRedis.start()) {
            double before = storeFailures();
            RedisLimiter limiter = limiter(URI.create(stopped.url()), (key, since) -> 0);
            Reservation held = admitted(limiter.reserve("k", LIMITS, 1_000));
            stopped.stop();
            held.settle(10, -1);

            limiter.close();

            assertTrue(storeFailures() - before >= 1, "counted: " + (storeFailures() - before));
        }
    }

    @Test
    void adjustmentsQueuedWhileACallIsInFlightGoInTheNextCallOneASlotAndARebuildWaitsForThem() throws Exception {
        CountDownLatch inFlight = new CountDownLatch(1);
        CountDownLatch answered = new CountDownLatch(1);
        List<List<String>> calls = new ArrayList<>();
        RedisSettlements settlements = new RedisSettlements((keys, args) -> {
            inFlight.countDown();
            await(answered);
            calls.add(List.copyOf(args));
        }, METRICS::limitStoreFailure);
        RedisSettlements.Slot one = new RedisSettlements.Slot("w1", "s1", 7, "g");
        RedisSettlements.Slot two = new RedisSettlements.Slot("w2", "s2", 9, "");
        try {
            settlements.add(new RedisSettlements.Adjustment(one, 0, -5, -50, 100));
            await(inFlight);
            settlements.add(new RedisSettlements.Adjustment(one, -1, -10, -150, 0));
            settlements.add(new RedisSettlements.Adjustment(two, 0, 3, 0, 0));
            settlements.add(new RedisSettlements.Adjustment(one, 0, -2, -20, 80));
            Thread rebuild = Thread.ofVirtual().start(() -> settlements.awaitSent(Duration.ofSeconds(20)));

            assertTrue(!rebuild.join(Duration.ofMillis(200)), "a rebuild waits while adjustments are queued");
            answered.countDown();
            assertTrue(rebuild.join(Duration.ofSeconds(10)), "and goes on once they were sent");
        } finally {
            answered.countDown();
            settlements.close();
        }

        assertEquals(List.of(List.of("7", "0", "-5", "g", "-50", "100"),
                List.of("7", "-1", "-12", "g", "-170", "80", "9", "0", "3", "", "0", "0")), calls);
    }

    private RedisLimiter limiter(URI url, SpendLedger ledger) {
        return new RedisLimiter(url, redis.name(), Duration.ofMillis(500), 8, StoreFailurePolicy.DENY,
                METRICS::limitStoreFailure, ledger);
    }

    private static Reservation admitted(Decision decision) {
        return assertInstanceOf(Decision.Admitted.class, decision).reservation();
    }

    private static UsageRecord record(Instant time, String keyId, long costNanos) {
        return new UsageRecord(time, keyId, "openai/gpt-5", "openai", "gpt-5", 200, 10, 10, 20, 1_000, -1, 0,
                new Cost.Reported(new Usd(costNanos)), PRICES, false);
    }

    private static double storeFailures() {
        return Metrics.globalRegistry().counter("gateway.limit.store.failures", List.of())
                .map(Counter::count).orElse(0L);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
