package io.aigw.runtime.trace;

import io.aigw.runtime.waits.Waits;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;

/**
 * Makes each wait of a traced request a short child span of its server span: a wait has a
 * duration, which a span event (an instant) would have to carry as an attribute of its own, and a
 * call to another store is a client span in the OpenTelemetry conventions, as a Redis or JDBC
 * client's own instrumentation would make it. The GenAI attempt spans keep the conventions' GenAI
 * attributes alone; these waits happen before any attempt, under the server span.
 */
final class SpanWaits implements Waits {
    static final AttributeKey<String> DB_SYSTEM = AttributeKey.stringKey("db.system.name");

    private final Tracer tracer;
    private final Span server;

    SpanWaits(Tracer tracer, Span server) {
        this.tracer = tracer;
        this.server = server;
    }

    @Override
    public Wait begin(What what) {
        Span span = switch (what) {
            case KEY_LOOKUP -> child("aigw.key.lookup", SpanKind.INTERNAL).startSpan();
            case LIMITS_RESERVATION -> child("aigw.limits.reserve", SpanKind.CLIENT)
                    .setAttribute(DB_SYSTEM, "redis").startSpan();
        };
        return span::end;
    }

    private SpanBuilder child(String name, SpanKind kind) {
        return tracer.spanBuilder(name).setParent(Context.root().with(server)).setSpanKind(kind);
    }
}
