package io.aigw.runtime.trace;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.Settings;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * How traces are made and exported, {@code gateway.tracing.*}, each key also set by the
 * OpenTelemetry SDK's own environment variable ({@code OTEL_SDK_DISABLED},
 * {@code OTEL_EXPORTER_OTLP_ENDPOINT}...), which wins over the gateway's.
 *
 * @param endpoint          where spans are posted: the OTLP/HTTP endpoint with {@code /v1/traces}
 * @param headers           sent with every export (a collector's or a vendor's key)
 * @param exportTimeout     how long one export may take before its spans are dropped
 * @param queueSize         spans ended and not yet exported that are kept; those past it are dropped
 * @param scheduleDelay     how long a span may wait in the queue before a batch is sent
 * @param serviceName       {@code service.name} of the spans
 * @param sampler           {@code OTEL_TRACES_SAMPLER}'s names: {@code parentbased_always_on} by default
 * @param samplerArg        the ratio of the {@code traceidratio} samplers
 * @param propagateUpstream whether the trace context goes on to the providers (they need not learn it)
 * @param contentBytes      how much of a request's body the server span records; 0 when content is
 *                          not recorded at all (the default)
 * @param metricsEndpoint   where the GenAI client metrics are posted, the OTLP/HTTP endpoint with
 *                          {@code /v1/metrics}; empty when metrics are not exported (the default)
 * @param metricsInterval   how often the metrics are exported
 */
public record TracingSettings(URI endpoint, Map<String, String> headers, Duration exportTimeout, int queueSize,
                              Duration scheduleDelay, String serviceName, String sampler, double samplerArg,
                              boolean propagateUpstream, int contentBytes, Optional<URI> metricsEndpoint,
                              Duration metricsInterval) {

    /** The samplers {@code OTEL_TRACES_SAMPLER} names that the gateway makes. */
    static final Set<String> SAMPLERS = Set.of("always_on", "always_off", "traceidratio",
            "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio");

    /**
     * The tracing asked for, or empty when tracing is off, as it is unless {@code OTEL_SDK_DISABLED}
     * (or {@code gateway.tracing.sdk-disabled}) is {@code false}.
     *
     * @throws ConfigurationException naming the key whose value cannot be used
     */
    public static Optional<TracingSettings> read(Settings settings) {
        Keys keys = new Keys(settings);
        if (keys.flag("OTEL_SDK_DISABLED", "gateway.tracing.sdk-disabled", true)) {
            return Optional.empty();
        }
        String protocol = keys.text("OTEL_EXPORTER_OTLP_PROTOCOL", "gateway.tracing.exporter.protocol",
                "http/protobuf");
        if (!protocol.equals("http/protobuf")) {
            throw new ConfigurationException("gateway.tracing.exporter.protocol (OTEL_EXPORTER_OTLP_PROTOCOL) must be"
                    + " http/protobuf, the one OTLP protocol the gateway exports with, not '" + protocol + "'");
        }
        String base = keys.text("OTEL_EXPORTER_OTLP_ENDPOINT", "gateway.tracing.exporter.endpoint",
                "http://localhost:4318");
        URI endpoint = settings.environment("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT").map(URI::create)
                .orElseGet(() -> signal(base, "traces"));
        String metrics = keys.text("OTEL_METRICS_EXPORTER", "gateway.tracing.metrics.exporter", "none");
        if (!metrics.equals("none") && !metrics.equals("otlp")) {
            throw new ConfigurationException("gateway.tracing.metrics.exporter (OTEL_METRICS_EXPORTER) must be otlp"
                    + " or none, not '" + metrics + "'");
        }
        Optional<URI> metricsEndpoint = metrics.equals("none") ? Optional.empty() : Optional.of(
                settings.environment("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT").map(URI::create)
                        .orElseGet(() -> signal(base, "metrics")));
        String sampler = keys.text("OTEL_TRACES_SAMPLER", "gateway.tracing.sampler", "parentbased_always_on")
                .toLowerCase(Locale.ROOT);
        if (!SAMPLERS.contains(sampler)) {
            throw new ConfigurationException("gateway.tracing.sampler (OTEL_TRACES_SAMPLER) must be one of "
                    + new TreeSet<>(SAMPLERS) + ", not '" + sampler + "'");
        }
        double ratio = keys.number("OTEL_TRACES_SAMPLER_ARG", "gateway.tracing.sampler-arg", 1.0, Double::parseDouble);
        if (!(ratio >= 0 && ratio <= 1)) {
            throw new ConfigurationException("gateway.tracing.sampler-arg (OTEL_TRACES_SAMPLER_ARG) must be a ratio"
                    + " from 0 to 1, not " + ratio);
        }
        int queueSize = keys.number("OTEL_BSP_MAX_QUEUE_SIZE", "gateway.tracing.batch.queue-size", 2048,
                Integer::parseInt);
        int contentBytes = keys.flag("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT",
                "gateway.tracing.content.capture", false)
                ? settings.getInt("gateway.tracing.content.max-bytes", 4096) : 0;
        if (queueSize < 1 || contentBytes < 0) {
            throw new ConfigurationException("gateway.tracing.batch.queue-size must be at least 1 and"
                    + " gateway.tracing.content.max-bytes at least 0");
        }
        return Optional.of(new TracingSettings(endpoint,
                headers(keys.text("OTEL_EXPORTER_OTLP_HEADERS", "gateway.tracing.exporter.headers", "")),
                keys.millis("OTEL_EXPORTER_OTLP_TIMEOUT", "gateway.tracing.exporter.timeout", Duration.ofSeconds(10)),
                queueSize,
                keys.millis("OTEL_BSP_SCHEDULE_DELAY", "gateway.tracing.batch.schedule-delay", Duration.ofSeconds(5)),
                keys.text("OTEL_SERVICE_NAME", "gateway.tracing.service-name", "aigw"), sampler, ratio,
                settings.getBoolean("gateway.tracing.propagate-upstream", false), contentBytes, metricsEndpoint,
                keys.millis("OTEL_METRIC_EXPORT_INTERVAL", "gateway.tracing.metrics.interval",
                        Duration.ofSeconds(60))));
    }

    /** A signal's path under an OTLP/HTTP base endpoint, as the SDK's own configuration adds it. */
    private static URI signal(String base, String signal) {
        return URI.create((base.endsWith("/") ? base : base + "/") + "v1/" + signal);
    }

    /** {@code OTEL_EXPORTER_OTLP_HEADERS}' form: {@code name=value} pairs apart by commas, values URL-encoded. */
    private static Map<String, String> headers(String text) {
        Map<String, String> headers = new LinkedHashMap<>();
        for (String pair : text.split(",")) {
            if (pair.isBlank()) {
                continue;
            }
            int equals = pair.indexOf('=');
            if (equals <= 0) {
                throw new ConfigurationException("gateway.tracing.exporter.headers (OTEL_EXPORTER_OTLP_HEADERS) holds"
                        + " name=value pairs apart by commas; one pair has no name");
            }
            headers.put(pair.substring(0, equals).strip(), URLDecoder.decode(pair.substring(equals + 1).strip(),
                    StandardCharsets.UTF_8));
        }
        return Map.copyOf(headers);
    }

    /** A setting read from the SDK's variable first, then from the gateway's key. */
    private record Keys(Settings settings) {

        String text(String variable, String key, String fallback) {
            return settings.environment(variable).orElseGet(() -> settings.get(key, fallback)).strip();
        }

        boolean flag(String variable, String key, boolean fallback) {
            Optional<String> value = settings.environment(variable);
            if (value.isEmpty()) {
                return settings.getBoolean(key, fallback);
            }
            return switch (value.get().strip().toLowerCase(Locale.ROOT)) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new ConfigurationException(variable + " must be true or false, not '" + value.get()
                        + "'");
            };
        }

        <T> T number(String variable, String key, T fallback, Function<String, T> parse) {
            String text = text(variable, key, String.valueOf(fallback));
            try {
                return parse.apply(text);
            } catch (NumberFormatException e) {
                throw new ConfigurationException(key + " (" + variable + ") must be a number, not '" + text + "'");
            }
        }

        /** The SDK's variables count milliseconds; the gateway's key takes a duration such as {@code 10s}. */
        Duration millis(String variable, String key, Duration fallback) {
            Optional<String> value = settings.environment(variable);
            if (value.isEmpty()) {
                return settings.getDuration(key, fallback);
            }
            try {
                return Duration.ofMillis(Long.parseLong(value.get().strip()));
            } catch (NumberFormatException e) {
                throw new ConfigurationException(variable + " must be a number of milliseconds, not '" + value.get()
                        + "'");
            }
        }
    }
}
