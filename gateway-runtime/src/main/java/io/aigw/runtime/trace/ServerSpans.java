package io.aigw.runtime.trace;

import io.aigw.runtime.observe.ObservedRequest;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import java.util.List;

/**
 * Opens a server span for each request to the API surfaces ({@code /api/}, {@code /anthropic/}),
 * in the trace of the caller's W3C {@code traceparent} and {@code tracestate} when it sent them,
 * else in a new one; answers with the span's own {@code traceparent}, so that a caller finds the
 * trace; and leaves the trace's id in the request's context for the access log and usage records.
 */
final class ServerSpans implements Filter {
    static final HeaderName TRACEPARENT = HeaderNames.create("traceparent");
    static final HeaderName TRACESTATE = HeaderNames.create("tracestate");
    private static final TextMapGetter<ServerRequestHeaders> HEADERS = new TextMapGetter<>() {
        @Override
        public Iterable<String> keys(ServerRequestHeaders headers) {
            return List.of(TRACEPARENT.lowerCase(), TRACESTATE.lowerCase());
        }

        @Override
        public String get(ServerRequestHeaders headers, String key) {
            HeaderName name = TRACEPARENT.lowerCase().equals(key) ? TRACEPARENT
                    : TRACESTATE.lowerCase().equals(key) ? TRACESTATE : HeaderNames.create(key);
            // Several tracestate lines make one list, comma-separated.
            return headers.contains(name) ? headers.get(name).values() : null;
        }
    };

    private final Tracer tracer;

    ServerSpans(Tracer tracer) {
        this.tracer = tracer;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        String path = request.prologue().uriPath().path();
        if (!path.startsWith("/api/") && !path.startsWith("/anthropic/")) {
            chain.proceed();
            return;
        }
        Context caller = W3CTraceContextPropagator.getInstance().extract(Context.root(), request.headers(), HEADERS);
        String method = request.prologue().method().text();
        // Named by the method alone until the exchange names its route: a path may hold ids.
        Span span = tracer.spanBuilder(method)
                .setParent(caller)
                .setSpanKind(SpanKind.SERVER)
                .setAttribute(GenAi.HTTP_METHOD, method)
                .startSpan();
        RequestSpans spans = new RequestSpans(span);
        request.context().register(spans);
        if (span.isRecording()) {
            request.context().register(new SpanWaits(tracer, spans));
        }
        SpanContext context = span.getSpanContext();
        request.context().get(ObservedRequest.class).ifPresent(observed -> observed.traceId(context.getTraceId()));
        response.header(TRACEPARENT, traceparent(context));
        try {
            chain.proceed();
        } finally {
            if (!spans.settled) {
                int status = response.status().code();
                span.setAttribute(GenAi.HTTP_STATUS, status);
                if (status >= 500) {
                    span.setStatus(StatusCode.ERROR);
                }
            }
            span.end();
        }
    }

    /** The W3C {@code traceparent} of a span: version, trace id, span id, flags. */
    static String traceparent(SpanContext context) {
        return "00-" + context.getTraceId() + "-" + context.getSpanId() + "-" + context.getTraceFlags().asHex();
    }
}
