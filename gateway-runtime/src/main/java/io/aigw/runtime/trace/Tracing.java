package io.aigw.runtime.trace;

import io.aigw.runtime.exchange.ExchangeListener;
import io.helidon.webserver.http.Filter;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporterBuilder;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporterBuilder;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Tracing with OpenTelemetry, when it is on: the SDK, its OTLP/HTTP exporter (through the JDK's
 * HTTP client) behind a bounded batch queue, the filter that opens each request's server span and
 * the listener that makes its attempts' spans, and the GenAI client metrics when their export is on. When tracing is off none of it is built, and the
 * request path has neither the filter nor the listener.
 */
public final class Tracing implements AutoCloseable {
    private static final String SCOPE = "io.aigw.gateway";

    private final SdkTracerProvider provider;
    private final Optional<SdkMeterProvider> meters;
    private final Filter filter;
    private final ExchangeListener listener;

    private Tracing(SdkTracerProvider provider, Optional<SdkMeterProvider> meters, Filter filter,
                    ExchangeListener listener) {
        this.provider = provider;
        this.meters = meters;
        this.filter = filter;
        this.listener = listener;
    }

    /** Starts tracing as {@code settings} ask, or nothing when they are empty (tracing off). */
    public static Optional<Tracing> start(Optional<TracingSettings> settings, SpanDrops drops) {
        return settings.map(tracing -> start(tracing, drops));
    }

    private static Tracing start(TracingSettings settings, SpanDrops drops) {
        OtlpHttpSpanExporterBuilder exporter = OtlpHttpSpanExporter.builder()
                .setEndpoint(settings.endpoint().toString())
                .setTimeout(settings.exportTimeout());
        settings.headers().forEach(exporter::addHeader);
        BoundedExport bound = new BoundedExport(settings.queueSize(), drops);
        BatchSpanProcessor batches = BatchSpanProcessor.builder(bound.counting(exporter.build()))
                .setMaxQueueSize(settings.queueSize())
                .setMaxExportBatchSize(Math.min(512, settings.queueSize()))
                .setScheduleDelay(settings.scheduleDelay())
                .build();
        Resource resource = Resource.getDefault().merge(Resource.create(
                Attributes.of(AttributeKey.stringKey("service.name"), settings.serviceName())));
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setResource(resource)
                .setSampler(sampler(settings.sampler(), settings.samplerArg()))
                .addSpanProcessor(bound.inFrontOf(batches))
                .build();
        Optional<SdkMeterProvider> meters = settings.metricsEndpoint().map(endpoint -> {
            OtlpHttpMetricExporterBuilder metrics = OtlpHttpMetricExporter.builder()
                    .setEndpoint(endpoint.toString())
                    .setTimeout(settings.exportTimeout());
            settings.headers().forEach(metrics::addHeader);
            return SdkMeterProvider.builder()
                    .setResource(resource)
                    .registerMetricReader(PeriodicMetricReader.builder(metrics.build())
                            .setInterval(settings.metricsInterval()).build())
                    .build();
        });
        Tracer tracer = provider.get(SCOPE);
        return new Tracing(provider, meters, new ServerSpans(tracer), new ExchangeSpans(tracer,
                settings.contentBytes(), settings.propagateUpstream(),
                meters.map(meter -> new GenAiMetrics(meter.get(SCOPE)))));
    }

    /** The filter that opens each request's server span; it goes inside the one that writes the access log. */
    public Filter filter() {
        return filter;
    }

    /** The exchange's listener that fills the server span and makes the attempts' spans. */
    public ExchangeListener listener() {
        return listener;
    }

    /** Exports the spans still queued, waiting for the collector ten seconds at most, and stops. */
    @Override
    public void close() {
        meters.ifPresent(metrics -> metrics.shutdown().join(10, TimeUnit.SECONDS));
        provider.shutdown().join(10, TimeUnit.SECONDS);
    }

    private static Sampler sampler(String name, double ratio) {
        return switch (name) {
            case "always_on" -> Sampler.alwaysOn();
            case "always_off" -> Sampler.alwaysOff();
            case "traceidratio" -> Sampler.traceIdRatioBased(ratio);
            case "parentbased_always_off" -> Sampler.parentBased(Sampler.alwaysOff());
            case "parentbased_traceidratio" -> Sampler.parentBased(Sampler.traceIdRatioBased(ratio));
            default -> Sampler.parentBased(Sampler.alwaysOn());
        };
    }
}
