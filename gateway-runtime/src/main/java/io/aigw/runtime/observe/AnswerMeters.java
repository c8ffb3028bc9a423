package io.aigw.runtime.observe;

import io.aigw.runtime.pricing.Usd;
import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Tag;
import io.helidon.metrics.api.Timer;
import java.util.List;
import java.util.function.Supplier;

/**
 * The meters a finished request of one {@link Kind} counts in, found with one lookup. Each is made
 * on its first use, so that a series appears only once it has counted something (no
 * {@code gateway_tokens_total} of 0 for embeddings' output, no cost of a free model). Two threads
 * may both make a meter: the registry gives them the same one.
 */
final class AnswerMeters {
    private final Kind kind;
    private final Supplier<MeterRegistry> registry;
    private volatile Counter requests;
    private volatile Timer upstreamLatency;
    private volatile Counter tokensIn;
    private volatile Counter tokensOut;
    private volatile Counter cost;

    /** How a request ended, as its labels say it. */
    record Kind(String endpoint, String provider, String model, int status) {
    }

    AnswerMeters(Kind kind, Supplier<MeterRegistry> registry) {
        this.kind = kind;
        this.registry = registry;
    }

    Counter requests() {
        Counter counter = requests;
        return counter != null ? counter : (requests = registry.get().getOrCreate(Counter.builder("gateway.requests")
                .description("Requests by endpoint, provider, model and status")
                .tags(List.of(Tag.create("endpoint", kind.endpoint), Tag.create("provider", kind.provider),
                        Tag.create("model", kind.model), Tag.create("status", Integer.toString(kind.status))))));
    }

    Timer upstreamLatency() {
        Timer timer = upstreamLatency;
        return timer != null ? timer : (upstreamLatency = registry.get().getOrCreate(GatewayMetrics.latencyTimer(
                "gateway.upstream.latency", "Time spent waiting on the upstream for an answer (stream: its headers)",
                List.of(Tag.create("provider", kind.provider)))));
    }

    Counter tokensIn() {
        Counter counter = tokensIn;
        return counter != null ? counter : (tokensIn = tokens("in"));
    }

    Counter tokensOut() {
        Counter counter = tokensOut;
        return counter != null ? counter : (tokensOut = tokens("out"));
    }

    /**
     * Helidon's counter counts whole numbers, so the dollars go to the Micrometer counter behind
     * it, whose double is fine for a rate on a dashboard; the usage report sums exact nano-dollars.
     */
    void cost(Usd usd) {
        Counter counter = cost;
        if (counter == null) {
            counter = registry.get().getOrCreate(Counter.builder("gateway.cost.usd")
                    .description("What requests cost, in US dollars: reported by the upstream, priced or estimated")
                    .tags(List.of(Tag.create("endpoint", kind.endpoint), Tag.create("provider", kind.provider),
                            Tag.create("model", kind.model))));
            cost = counter;
        }
        if (counter.unwrap(Object.class) instanceof io.micrometer.core.instrument.Counter dollars) {
            dollars.increment(usd.approximateDollars());
        }
    }

    private Counter tokens(String direction) {
        return registry.get().getOrCreate(Counter.builder("gateway.tokens")
                .description("Tokens the upstreams reported, in (prompt) and out (completion)")
                .tags(List.of(Tag.create("endpoint", kind.endpoint), Tag.create("provider", kind.provider),
                        Tag.create("model", kind.model), Tag.create("direction", direction))));
    }
}
