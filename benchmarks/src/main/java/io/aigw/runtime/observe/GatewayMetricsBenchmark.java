package io.aigw.runtime.observe;

import io.aigw.runtime.HotPathBenchmark;
import io.aigw.runtime.pricing.Usd;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;

/**
 * What the metrics of one finished chat completion cost: the request counter, the overhead and
 * upstream latency histograms, the two token counters and the cost counter, in Helidon's global
 * registry as the gateway configures it.
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class GatewayMetricsBenchmark extends HotPathBenchmark {
    private static final Usd COST = new Usd(21_000);
    private GatewayMetrics metrics;
    private long nanos;

    @Setup
    public void setUp() {
        metrics = new GatewayMetrics(GatewayMetrics.globalRegistry(), Set.of("openai/gpt-4o-mini"));
    }

    @Benchmark
    public void completedRequest() {
        // A spread of durations, so that the histograms' buckets all take records.
        nanos = (nanos + 7_919_000) % 2_000_000_000L;
        metrics.completed("chat_completions", "openai/gpt-4o-mini", "openai", 200, nanos / 100, nanos, 12, 34,
                COST);
    }
}
