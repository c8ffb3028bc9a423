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
 * written under {@code aigw-bench:}). The limits are set high enough never to refuse.
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RateLimiterBenchmark extends HotPathBenchmark {
    private static final Limits LIMITS = new Limits(1_000_000_000L, 1_000_000_000_000L);

    @Param({"local", "redis"})
    public String store;

    private RateLimiter limiter;

    @Setup
    public void setUp() {
        limiter = store.equals("local") ? new LocalLimiter()
                : new RedisLimiter(URI.create("redis://127.0.0.1:6379"), "aigw-bench:", Duration.ofSeconds(1), 8,
                        StoreFailurePolicy.DENY, new GatewayMetrics(Metrics::globalRegistry, Set.of()), SpendLedger.NONE);
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
}
