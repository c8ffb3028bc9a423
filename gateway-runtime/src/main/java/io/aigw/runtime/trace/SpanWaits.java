package io.aigw.runtime.trace;

import io.aigw.runtime.waits.Waits;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

/**
 * Makes the waits of a traced request visible in its trace. A wait on a store (the key's lookup,
 * the Redis reservation) is a short child span of the server span: it has a duration, which a span
 * event (an instant) would carry only as an attribute of its own, and a call to another store is a
 * client span in the OpenTelemetry conventions, as a Redis or JDBC client's own instrumentation
 * would make it; it comes before any attempt, so it sits under the server span. The wait for an
 * upstream's headers is an event on the attempt's span instead, at the moment they came: the
 * attempt's span already spans the wait, and the GenAI conventions give the attempt no child.
 */
final class SpanWaits implements Waits {
    static final AttributeKey<String> DB_SYSTEM = AttributeKey.stringKey("db.system.name");
    static final String HEADERS_EVENT = "aigw.upstream.headers";
    /** Seconds from the attempt's call to its answer's headers. */
    static final AttributeKey<Double> WAITED = AttributeKey.doubleKey("aigw.wait.duration");

    private final Tracer tracer;
    private final RequestSpans spans;

    SpanWaits(Tracer tracer, RequestSpans spans) {
        this.tracer = tracer;
        this.spans = spans;
    }

    @Override
    public Wait begin(What what) {
        return switch (what) {
            case KEY_LOOKUP -> child("aigw.key.lookup", SpanKind.INTERNAL).startSpan()::end;
            case LIMITS_RESERVATION -> child("aigw.limits.reserve", SpanKind.CLIENT).setAttribute(DB_SYSTEM, "redis")
                    .startSpan()::end;
            case UPSTREAM_HEADERS -> headersOf(spans.attempt);
        };
    }

    private SpanBuilder child(String name, SpanKind kind) {
        return tracer.spanBuilder(name).setParent(Context.root().with(spans.server)).setSpanKind(kind);
    }

    /** Marks on the attempt's span when its answer's headers came, and how long they took. */
    private static Wait headersOf(Span attempt) {
        if (attempt == null) {
            return Wait.NONE;
        }
        long started = System.nanoTime();
        return () -> attempt.addEvent(HEADERS_EVENT, Attributes.of(WAITED, (System.nanoTime() - started) / 1e9));
    }
}
