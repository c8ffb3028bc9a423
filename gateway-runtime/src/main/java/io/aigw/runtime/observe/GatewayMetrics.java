package io.aigw.runtime.observe;

import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.routing.ReloadListener;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.Gauge;
import io.helidon.metrics.api.Meter;
import io.helidon.metrics.api.MeterRegistry;
import io.helidon.metrics.api.MetricsConfig;
import io.helidon.metrics.api.MetricsFactory;
import io.helidon.metrics.api.Tag;
import io.helidon.metrics.api.Timer;
import io.helidon.service.registry.Services;
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

    /**
     * The configuration of Helidon's metrics: Prometheus, named as a publisher (by configuration:
     * Helidon's module does not export its PrometheusPublisher). With no publisher named, Helidon
     * 4.5.0 gives its Prometheus registry an exemplar sampler even when no tracer can give it a span
     * (it tests its lazy holder of the span supplier, not the supplier, for the no-op one): every
     * counter's increment and histogram's record then reads the wall clock for an exemplar that is
     * never made, 0.17 us of a request's metrics (an increment takes 43 ns instead of 14). One
     * instance: a registry asked for with a configuration that does not equal the current one's
     * replaces it.
     */
    public static final MetricsConfig REGISTRY_CONFIG =
            MetricsConfig.create(Config.just(ConfigSources.create(Map.of("publishers.0.type", "prometheus"))));

    private final Supplier<MeterRegistry> registry;
    private volatile Set<String> knownModels;
    private final AtomicInteger requestsInFlight = new AtomicInteger();
    private final AtomicInteger streamsInFlight = new AtomicInteger();
    /** Meters by name and label values: building a meter per request costs more than the request. */
    private final Map<List<String>, Meter> meters = new ConcurrentHashMap<>();
    /** A request's meters, found with one lookup: the ones it counts in are known by how it ended. */
    private final Map<AnswerMeters.Kind, AnswerMeters> answers = new ConcurrentHashMap<>();
    private volatile Timer overhead;
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

    /**
     * The global registry as the gateway configures it, made at the first call if Helidon's metrics
     * observer has not made it yet; the observer, given {@link #REGISTRY_CONFIG} too, keeps it. The
     * factory is looked up once: a lookup in Helidon's service registry walks its contexts under
     * locks (0.37 us, if made at every request).
     */
    public static Supplier<MeterRegistry> globalRegistry() {
        MetricsFactory factory = Services.get(MetricsFactory.class);
        return () -> factory.globalRegistry(REGISTRY_CONFIG);
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
     * with its tokens, the gateway's and upstream's time, and what it cost when that is known.
     */
    public void completed(String endpoint, String model, String provider, int status, long overheadNanos,
                          long upstreamNanos, long promptTokens, long completionTokens, Usd cost) {
        String providerLabel = provider == null ? "none" : provider;
        AnswerMeters answer = answerMeters(new AnswerMeters.Kind(endpoint, providerLabel, modelLabel(model), status));
        answer.requests().increment();
        overhead().record(overheadNanos, TimeUnit.NANOSECONDS);
        if (provider != null) {
            answer.upstreamLatency().record(upstreamNanos, TimeUnit.NANOSECONDS);
        }
        if (promptTokens > 0) {
            answer.tokensIn().increment(promptTokens);
        }
        if (completionTokens > 0) {
            answer.tokensOut().increment(completionTokens);
        }
        if (cost != null) {
            answer.cost(cost);
        }
    }

    /**
     * Adds what an attempt of a request that ended with {@code status} cost to
     * {@code gateway_cost_usd_total}: a provider that billed though another one answered.
     */
    public void cost(String endpoint, String provider, String model, int status, Usd usd) {
        answerMeters(new AnswerMeters.Kind(endpoint, provider, modelLabel(model), status)).cost(usd);
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

    /** A Prometheus histogram of durations in {@link #LATENCY_BUCKETS}, without client-side percentiles. */
    static Timer.Builder latencyTimer(String name, String description, List<Tag> tags) {
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
        // Looked up first: a meter counted per request exists after its first, and computeIfAbsent
        // would take a lambda made for the call.
        Meter meter = meters.get(key);
        return meter != null ? meter : meters.computeIfAbsent(key, ignored -> create.get());
    }

    /** The registry meters go to; when Helidon has replaced it, the cached meters and gauges are made anew there. */
    private MeterRegistry registry() {
        MeterRegistry now = registry.get();
        if (now != current) {
            synchronized (this) {
                if (now != current) {
                    meters.clear();
                    answers.clear();
                    overhead = null;
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

    private AnswerMeters answerMeters(AnswerMeters.Kind kind) {
        registry();
        AnswerMeters found = answers.get(kind);
        return found != null ? found : answers.computeIfAbsent(kind, ignored -> new AnswerMeters(kind, this::registry));
    }

    private Timer overhead() {
        Timer timer = overhead;
        if (timer == null) {
            timer = registry().getOrCreate(latencyTimer("gateway.overhead",
                    "Time the gateway itself adds to a request (total minus upstream)", List.of()));
            overhead = timer;
        }
        return timer;
    }

    private String modelLabel(String model) {
        return knownModels.contains(model) ? model : OTHER;
    }
}
