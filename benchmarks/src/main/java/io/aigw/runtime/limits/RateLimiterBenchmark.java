package io.aigw.runtime.limits;

import io.aigw.runtime.HotPathBenchmark;
import io.aigw.runtime.config.StoreFailurePolicy;
import io.aigw.runtime.observe.GatewayMetrics;
import io.helidon.metrics.api.Metrics;
import java.net.URI;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What a key with limits adds to a request: the reservation before it is forwarded, and the
 * settlement after, in this process's memory ({@code store=local}) or in the Redis at
 * 127.0.0.1:6379 ({@code store=redis}, one script a call; it must be running, and its keys are
 * written under {@code aigw-bench:}). The limits are set high enough never to refuse. The
 * {@code ...WithBudget} ones also reserve a cost against a USD budget, in the same lock or script, and
 * settle it to another cost, as a key with {@code budget_usd} does; the budget is large enough never
 * to run out, and its spend so far is read once (zero) from a ledger standing in for the database.
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RateLimiterBenchmark extends HotPathBenchmark {
    private static final Limits LIMITS = new Limits(1_000_000_000L, 1_000_000_000_000L);
    private static final long DAY_MILLIS = 86_400_000L;

    /** USD 1 000 000 a day; each request reserves USD 0.005 and costs USD 0.0012. A day's count expires in Redis. */
    private BudgetClaim budget;

    @Param({"local", "redis"})
    public String store;

    private RateLimiter limiter;

    @Setup
    public void setUp() {
        long today = System.currentTimeMillis() / DAY_MILLIS * DAY_MILLIS;
        budget = new BudgetClaim(1_000_000_000_000_000L, "day:" + today, today, today + DAY_MILLIS, 5_000_000);
        limiter = store.equals("local") ? new LocalLimiter()
                : new RedisLimiter(URI.create("redis://127.0.0.1:6379"), "aigw-bench:", Duration.ofSeconds(1), 8,
                        StoreFailurePolicy.DENY,
                        new GatewayMetrics(Metrics::globalRegistry, Set.of())::limitStoreFailure, SpendLedger.NONE);
    }

    @TearDown
    public void tearDown() {
        limiter.close();
    }

    /** The check before forwarding: what a request waits for. */
    @Benchmark
    public void reserve(Blackhole blackhole) {
        Decision decision = limiter.reserve("key_bench", LIMITS, 500);
        blackhole.consume(decision);
        if (decision instanceof Decision.Admitted admitted) {
            admitted.reservation().settle(500, -1);
        }
    }

    /** The check and a settlement to another count, as an answer's usage makes it. */
    @Benchmark
    public void reserveAndSettle(Blackhole blackhole) {
        Decision decision = limiter.reserve("key_bench", LIMITS, 500);
        blackhole.consume(decision);
        if (decision instanceof Decision.Admitted admitted) {
            admitted.reservation().settle(120, -1);
        }
    }

    /** The check before forwarding for a key with a budget too: one lock or one script, as without. */
    @Benchmark
    public void reserveWithBudget(Blackhole blackhole) {
        Decision decision = limiter.reserve("key_bench_budget", LIMITS, 500, budget);
        blackhole.consume(decision);
        if (decision instanceof Decision.Admitted admitted) {
            admitted.reservation().settle(500, budget.costNanos());
        }
    }

    /** The check and a settlement to another count and cost, as an answer's usage makes them. */
    @Benchmark
    public void reserveAndSettleWithBudget(Blackhole blackhole) {
        Decision decision = limiter.reserve("key_bench_budget", LIMITS, 500, budget);
        blackhole.consume(decision);
        if (decision instanceof Decision.Admitted admitted) {
            admitted.reservation().settle(120, 1_200_000);
        }
    }
}
