package io.aigw.runtime.trace;

import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import java.io.IOException;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;

/**
 * An OTLP/HTTP collector on loopback: takes each export the gateway posts to {@code /v1/traces}
 * and {@code /v1/metrics} and decodes its protobuf body with the OTLP project's own classes (opentelemetry-proto, on the
 * class path already through Micrometer's OTLP registry), as a real collector would.
 */
final class OtlpReceiver implements AutoCloseable {
    private final MockWebServer server = new MockWebServer();
    private final List<ReceivedSpan> spans = new ArrayList<>();
    private final List<ReceivedPoint> points = new ArrayList<>();

    OtlpReceiver() throws IOException {
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                return new MockResponse.Builder().code(200).addHeader("Content-Type", "application/x-protobuf").build();
            }
        });
        server.start(InetAddress.getLoopbackAddress(), 0);
    }

    /** The base endpoint the gateway is given, as {@code OTEL_EXPORTER_OTLP_ENDPOINT}. */
    String endpoint() {
        return server.url("/").toString();
    }

    /** Waits up to ten seconds for a span that {@code matches}, reading exports as they come. */
    ReceivedSpan await(Predicate<ReceivedSpan> matches) throws Exception {
        return await(spans, matches);
    }

    /** Waits up to ten seconds for a histogram's data point that {@code matches}. */
    ReceivedPoint awaitPoint(Predicate<ReceivedPoint> matches) throws Exception {
        return await(points, matches);
    }

    private <T> T await(List<T> received, Predicate<T> matches) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            for (T one : received) {
                if (matches.test(one)) {
                    return one;
                }
            }
            long left = deadline - System.nanoTime();
            RecordedRequest export = left > 0 ? server.takeRequest(left, TimeUnit.NANOSECONDS) : null;
            if (export == null) {
                throw new AssertionError("no such one among " + received);
            }
            if (!"application/x-protobuf".equals(export.getHeaders().get("Content-Type"))) {
                throw new AssertionError("not an OTLP/HTTP protobuf export: " + export);
            }
            byte[] body = export.getBody().toByteArray();
            switch (export.getTarget()) {
                case "/v1/traces" -> read(ExportTraceServiceRequest.parseFrom(body));
                case "/v1/metrics" -> read(ExportMetricsServiceRequest.parseFrom(body));
                default -> throw new AssertionError("not an OTLP/HTTP path: " + export);
            }
        }
    }

    private void read(ExportMetricsServiceRequest request) {
        for (ResourceMetrics resource : request.getResourceMetricsList()) {
            for (ScopeMetrics scope : resource.getScopeMetricsList()) {
                for (Metric metric : scope.getMetricsList()) {
                    for (HistogramDataPoint point : metric.getHistogram().getDataPointsList()) {
                        points.add(new ReceivedPoint(metric.getName(), metric.getUnit(),
                                attributes(point.getAttributesList()), point.getCount(), point.getSum()));
                    }
                }
            }
        }
    }

    /** The spans received so far that {@code matches}. */
    List<ReceivedSpan> received(Predicate<ReceivedSpan> matches) {
        return spans.stream().filter(matches).toList();
    }

    private void read(ExportTraceServiceRequest request) {
        for (ResourceSpans resource : request.getResourceSpansList()) {
            String service = resource.getResource().getAttributesList().stream()
                    .filter(attribute -> attribute.getKey().equals("service.name"))
                    .map(attribute -> attribute.getValue().getStringValue()).findFirst().orElse(null);
            for (ScopeSpans scope : resource.getScopeSpansList()) {
                for (Span span : scope.getSpansList()) {
                    Map<String, Object> attributes = attributes(span.getAttributesList());
                    HexFormat hex = HexFormat.of();
                    spans.add(new ReceivedSpan(service, span.getName(), span.getKind(),
                            hex.formatHex(span.getTraceId().toByteArray()), hex.formatHex(span.getSpanId().toByteArray()),
                            hex.formatHex(span.getParentSpanId().toByteArray()), attributes,
                            span.getStatus().getCode(), span.getEventsList().stream()
                            .map(event -> new ReceivedEvent(event.getName(), attributes(event.getAttributesList()),
                                    event.getTimeUnixNano() - span.getStartTimeUnixNano())).toList()));
                }
            }
        }
    }

    private static Map<String, Object> attributes(List<KeyValue> list) {
        Map<String, Object> attributes = new TreeMap<>();
        for (KeyValue attribute : list) {
            attributes.put(attribute.getKey(), value(attribute.getValue()));
        }
        return attributes;
    }

    private static Object value(AnyValue value) {
        return switch (value.getValueCase()) {
            case STRING_VALUE -> value.getStringValue();
            case BOOL_VALUE -> value.getBoolValue();
            case INT_VALUE -> value.getIntValue();
            case DOUBLE_VALUE -> value.getDoubleValue();
            case ARRAY_VALUE -> value.getArrayValue().getValuesList().stream().map(OtlpReceiver::value).toList();
            default -> value.toString();
        };
    }

    @Override
    public void close() {
        server.close();
    }

    /** A span as the collector got it: ids in hex, attributes by name. */
    record ReceivedSpan(String service, String name, Span.SpanKind kind, String traceId, String spanId,
                        String parentSpanId, Map<String, Object> attributes,
                        io.opentelemetry.proto.trace.v1.Status.StatusCode status, List<ReceivedEvent> events) {

        Object attribute(String key) {
            return attributes.get(key);
        }
    }

    /** A span's event: its name, attributes, and nanoseconds from its span's start. */
    record ReceivedEvent(String name, Map<String, Object> attributes, long sinceStartNanos) {
    }

    /** One data point of a histogram as the collector got it: its metric, attributes, count and sum. */
    record ReceivedPoint(String metric, String unit, Map<String, Object> attributes, long count, double sum) {
    }
}
