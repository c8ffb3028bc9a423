package io.aigw.runtime.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.Settings;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The standard OTEL_* variables and gateway.tracing.* keys, as an operator sets them. */
public final class TracingSettingsTest {

    @Test
    void tracingIsOffUnlessTheSdkIsEnabled() {
        assertEquals(Optional.empty(), read(Map.of("gateway.tracing.exporter.endpoint", "http://collector:4318"),
                Map.of()));
        assertEquals(Optional.empty(), read(Map.of("gateway.tracing.sdk-disabled", "false"),
                Map.of("OTEL_SDK_DISABLED", "true")));
    }

    @Test
    void onWithTheStandardDefaults() {
        TracingSettings settings = read(Map.of("gateway.tracing.sdk-disabled", "false"), Map.of()).orElseThrow();

        assertEquals(URI.create("http://localhost:4318/v1/traces"), settings.endpoint());
        assertEquals("aigw", settings.serviceName());
        assertEquals("parentbased_always_on", settings.sampler());
        assertEquals(2048, settings.queueSize());
        assertEquals(Duration.ofSeconds(5), settings.scheduleDelay());
        assertEquals(0, settings.contentBytes());
        assertEquals(false, settings.propagateUpstream());
        assertEquals(Optional.empty(), settings.metricsEndpoint());
    }

    @Test
    void theSdksVariablesWinOverTheGatewaysKeys() {
        TracingSettings settings = read(Map.of(
                "gateway.tracing.service-name", "from-file",
                "gateway.tracing.exporter.endpoint", "http://file:4318",
                "gateway.tracing.batch.schedule-delay", "2s",
                "gateway.tracing.content.capture", "true"), Map.of(
                "OTEL_SDK_DISABLED", "false",
                "OTEL_SERVICE_NAME", "from-env",
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/",
                "OTEL_EXPORTER_OTLP_HEADERS", "x-honeycomb-team=abc%20def, x-other=1",
                "OTEL_BSP_SCHEDULE_DELAY", "250",
                "OTEL_TRACES_SAMPLER", "parentbased_traceidratio",
                "OTEL_TRACES_SAMPLER_ARG", "0.25",
                "OTEL_METRICS_EXPORTER", "otlp")).orElseThrow();

        assertEquals("from-env", settings.serviceName());
        assertEquals(URI.create("http://collector:4318/v1/traces"), settings.endpoint());
        assertEquals(Map.of("x-honeycomb-team", "abc def", "x-other", "1"), settings.headers());
        assertEquals(Duration.ofMillis(250), settings.scheduleDelay());
        assertEquals("parentbased_traceidratio", settings.sampler());
        assertEquals(0.25, settings.samplerArg());
        assertEquals(4096, settings.contentBytes());
        assertEquals(Optional.of(URI.create("http://collector:4318/v1/metrics")), settings.metricsEndpoint());
    }

    @Test
    void anUnsupportedProtocolOrSamplerStopsTheStartNamingTheKey() {
        ConfigurationException grpc = assertThrows(ConfigurationException.class, () -> read(Map.of(),
                Map.of("OTEL_SDK_DISABLED", "false", "OTEL_EXPORTER_OTLP_PROTOCOL", "grpc")));
        assertTrue(grpc.getMessage().contains("OTEL_EXPORTER_OTLP_PROTOCOL"), grpc.getMessage());
        ConfigurationException sampler = assertThrows(ConfigurationException.class, () -> read(Map.of(
                "gateway.tracing.sdk-disabled", "false", "gateway.tracing.sampler", "sometimes"), Map.of()));
        assertTrue(sampler.getMessage().contains("gateway.tracing.sampler"), sampler.getMessage());
    }

    private static Optional<TracingSettings> read(Map<String, String> file, Map<String, String> environment) {
        return TracingSettings.read(new Settings(Config.just(ConfigSources.create(file)), environment));
    }
}
