package io.aigw.runtime.observe;

import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.routing.ReloadListener;
import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.Gauge;
import io.helidon.metrics.api.Meter;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.Tag;
import io.helidon.metrics.api.Timer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * The gateway's Prometheus metrics, served by Helidon at {@code /observe/metrics}.
 *
 * <p>Labels stay bounded: {@code model} is a model of the installed catalogues (or
 * {@code gateway/auto}), anything else a caller types counts as {@code other}; {@code provider} is
 * an installed provider or {@code none}; no key ids.
 */
public final class GatewayMetrics implements ReloadListener {
    private static final String OTHER = "other";
    private static final Duration[] LATENCY_BUCKETS = {
            Duration.ofNanos(100_000), Duration.ofNanos(250_000), Duration.ofNanos(500_000), Duration.ofMillis(1),
            Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
            Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500),
            Duration.ofSeconds(1), Duration.ofMillis(2500), Duration.ofSeconds(5), Duration.ofSeconds(10),
            Duration.ofSeconds(30), Duration.ofSeconds(60), Duration.ofSeconds(120)};
    /**
     * Helidon gives every timer six client-side percentiles unless told otherwise; each is kept in
     * rotating HdrHistograms on every record, a cost on each request, and is published as a quantile
     * series that cannot be aggregated across instances. The buckets above answer the same question
     * in Prometheus ({@code histogram_quantile}).
     */
    private static final double[] NO_PERCENTILES = {};

    private final Supplier<MeterRegistry> registry;
    private volatile Set<String> knownModels;
    private final AtomicInteger requestsInFlight = new AtomicInteger();
    private final AtomicInteger streamsInFlight = new AtomicInteger();
    /** Meters by name and label values: building a meter per request costs more than the request. */
    private final Map<List<String>, Meter> meters = new ConcurrentHashMap<>();
    private volatile MeterRegistry current;

    /**
     * @param registry    where meters live; followed when it changes, because Helidon may replace
     *                    its global registry when the metrics observer starts
     * @param knownModels the model ids callers may use that get their own label value
     */
    public GatewayMetrics(Supplier<MeterRegistry> registry, Set<String> knownModels) {
        this.registry = registry;
        this.knownModels = Set.copyOf(knownModels);
        registry();
    }

    /** The model ids that get their own label value from now on: a plugin reload changed the catalogues. */
    @Override
    public void knownModels(Set<String> ids) {
        knownModels = Set.copyOf(ids);
    }

    /** Counts a reload of the plugins by how it ended: {@code applied} or {@code refused}. */
    @Override
    public void pluginReload(String result) {
        counter(List.of("gateway.plugin.reloads", result), () -> Counter.builder("gateway.plugin.reloads")
                .description("Reloads of the plugins while the gateway runs, applied or refused")
                .tags(List.of(Tag.create("result", result)))).increment();
    }

    /** Counts a request refused by its key's rate limit, by which limit: {@code requests} or {@code tokens}. */
    public void rateLimited(String limit) {
        counter(List.of("gateway.rate.limited", limit), () -> Counter.builder("gateway.rate.limited")
                .description("Requests refused with 429 by their key's rpm, tpm or budget")
                .tags(List.of(Tag.create("limit", limit)))).increment();
    }

    /** Counts a rate-limit check the limit store (Redis) could not answer. */
    public void limitStoreFailure() {
        counter(List.of("gateway.limit.store.failures"), () -> Counter.builder("gateway.limit.store.failures")
                .description("Rate-limit checks the limit store could not answer, served by on-store-failure"))
                .increment();
    }

    public void requestStarted() {
        requestsInFlight.incrementAndGet();
    }

    public void requestEnded() {
        requestsInFlight.decrementAndGet();
    }

    public void streamStarted() {
        streamsInFlight.incrementAndGet();
    }

    public void streamEnded() {
        streamsInFlight.decrementAndGet();
    }

    /**
     * Counts a finished request on {@code endpoint} ({@code chat_completions}, {@code embeddings}...)
     * with its tokens and the gateway's and upstream's time.
     */
    public void completed(String endpoint, String model, String provider, int status, long overheadNanos,
                          long upstreamNanos, long promptTokens, long completionTokens) {
        String modelLabel = modelLabel(model);
        String providerLabel = provider == null ? "none" : provider;
        counter(List.of("gateway.requests", endpoint, providerLabel, modelLabel, Integer.toString(status)),
                () -> Counter.builder("gateway.requests")
                        .description("Requests by endpoint, provider, model and status")
                        .tags(List.of(Tag.create("endpoint", endpoint), Tag.create("provider", providerLabel),
                                Tag.create("model", modelLabel), Tag.create("status", Integer.toString(status)))))
                .increment();
        timer(List.of("gateway.overhead"), () -> latencyTimer("gateway.overhead",
                "Time the gateway itself adds to a request (total minus upstream)", List.of()))
                .record(overheadNanos, TimeUnit.NANOSECONDS);
        if (provider != null) {
            timer(List.of("gateway.upstream.latency", providerLabel), () -> latencyTimer("gateway.upstream.latency",
                    "Time spent waiting on the upstream for an answer (stream: its headers)",
                    List.of(Tag.create("provider", providerLabel)))).record(upstreamNanos, TimeUnit.NANOSECONDS);
        }
        tokens(endpoint, providerLabel, modelLabel, "in", promptTokens);
        tokens(endpoint, providerLabel, modelLabel, "out", completionTokens);
    }

    /**
     * Adds what a request cost (known costs only) to {@code gateway_cost_usd_total}, in US dollars.
     * Helidon's counter counts whole numbers, so the increment goes to the Micrometer counter behind
     * it, whose double is fine for a rate on a dashboard; the usage report sums exact nano-dollars.
     */
    public void cost(String endpoint, String provider, String model, Usd usd) {
        String modelLabel = modelLabel(model);
        String providerLabel = provider == null ? "none" : provider;
        Counter counter = counter(List.of("gateway.cost.usd", endpoint, providerLabel, modelLabel),
                () -> Counter.builder("gateway.cost.usd")
                        .description("What requests cost, in US dollars: reported by the upstream, priced or estimated")
                        .tags(List.of(Tag.create("endpoint", endpoint), Tag.create("provider", providerLabel),
                                Tag.create("model", modelLabel))));
        if (counter.unwrap(Object.class) instanceof io.micrometer.core.instrument.Counter dollars) {
            dollars.increment(usd.approximateDollars());
        }
    }

    /** Records how long a stream took to send its first byte to the caller. */
    public void streamFirstByte(String provider, long nanos) {
        timer(List.of("gateway.stream.first.byte", provider), () -> latencyTimer("gateway.stream.first.byte",
                "Time from request to the first byte of a stream sent to the caller",
                List.of(Tag.create("provider", provider)))).record(nanos, TimeUnit.NANOSECONDS);
    }

    /** Counts a provider that failed and was passed over by {@code gateway/auto}. */
    public void fallback(String provider) {
        counter(List.of("gateway.fallbacks", provider), () -> Counter.builder("gateway.fallbacks")
                .description("Providers gateway/auto moved past after a failure")
                .tags(List.of(Tag.create("provider", provider)))).increment();
    }

    /**
     * Counts a call made with one of a provider's upstream keys, by how it ended ({@code answered},
     * {@code cut}, {@code refused}, {@code key_rejected}, {@code failed}, {@code caller_left}): spend
     * and trouble per upstream key.
     */
    public void upstreamKeyAttempt(String provider, String key, String ending) {
        counter(List.of("gateway.upstream.key.attempts", provider, key, ending), () -> Counter.builder(
                        "gateway.upstream.key.attempts")
                .description("Calls made with each upstream key, by how they ended")
                .tags(List.of(Tag.create("provider", provider), Tag.create("key", key),
                        Tag.create("ending", ending)))).increment();
    }

    /** Counts an upstream key the upstream refused (401/403), marked failed in its pool. */
    public void keyCooldown(String provider) {
        counter(List.of("gateway.key.cooldowns", provider), () -> Counter.builder("gateway.key.cooldowns")
                .description("Upstream keys refused (401/403), then skipped until a reload or a probe")
                .tags(List.of(Tag.create("provider", provider)))).increment();
    }

    /**
     * Counts usage records dropped, by {@code reason}: {@code queue_full} (gateway.usage.queue-size
     * reached), {@code bad_record} (the database refused the record's data; the rest of its batch
     * was written), {@code store_down} (the database still failed at shutdown), {@code write_failed}
     * (any other failure of a batch).
     */
    public void usageRecordsDropped(String reason, long count) {
        counter(List.of("gateway.usage.records.dropped", reason), () -> Counter.builder("gateway.usage.records.dropped")
                .description("Usage records never written, by reason: queue_full, bad_record, store_down,"
                        + " write_failed")
                .tags(List.of(Tag.create("reason", reason)))).increment(count);
    }

    /**
     * Counts spans that never reached the trace collector, by {@code reason}: {@code queue_full}
     * (gateway.tracing.batch.queue-size reached) or {@code export_failed} (the collector was down,
     * slow or refused them).
     */
    public void spansDropped(String reason, long count) {
        counter(List.of("gateway.trace.spans.dropped", reason), () -> Counter.builder("gateway.trace.spans.dropped")
                .description("Trace spans never exported, by reason: queue_full, export_failed")
                .tags(List.of(Tag.create("reason", reason)))).increment(count);
    }

    private void tokens(String endpoint, String provider, String model, String direction, long count) {
        if (count > 0) {
            counter(List.of("gateway.tokens", endpoint, provider, model, direction),
                    () -> Counter.builder("gateway.tokens")
                    .description("Tokens the upstreams reported, in (prompt) and out (completion)")
                    .tags(List.of(Tag.create("endpoint", endpoint), Tag.create("provider", provider),
                            Tag.create("model", model), Tag.create("direction", direction)))).increment(count);
        }
    }

    /** A Prometheus histogram of durations in {@link #LATENCY_BUCKETS}, without client-side percentiles. */
    private static Timer.Builder latencyTimer(String name, String description, List<Tag> tags) {
        return Timer.builder(name)
                .description(description)
                .tags(tags)
                .buckets(LATENCY_BUCKETS)
                .percentiles(NO_PERCENTILES);
    }

    private Counter counter(List<String> key, Supplier<Counter.Builder> builder) {
        return (Counter) meter(key, () -> registry().getOrCreate(builder.get()));
    }

    private Timer timer(List<String> key, Supplier<Timer.Builder> builder) {
        return (Timer) meter(key, () -> registry().getOrCreate(builder.get()));
    }

    private Meter meter(List<String> key, Supplier<Meter> create) {
        registry();
        return meters.computeIfAbsent(key, ignored -> create.get());
    }

    /** The registry meters go to; when Helidon has replaced it, the cached meters and gauges are made anew there. */
    private MeterRegistry registry() {
        MeterRegistry now = registry.get();
        if (now != current) {
            synchronized (this) {
                if (now != current) {
                    meters.clear();
                    now.getOrCreate(Gauge.builder("gateway.requests.in.flight", requestsInFlight, AtomicInteger::get)
                            .description("Chat completion requests being handled"));
                    now.getOrCreate(Gauge.builder("gateway.streams.in.flight", streamsInFlight, AtomicInteger::get)
                            .description("Stream requests being handled"));
                    current = now;
                }
            }
        }
        return now;
    }

    private String modelLabel(String model) {
        return knownModels.contains(model) ? model : OTHER;
    }
}
