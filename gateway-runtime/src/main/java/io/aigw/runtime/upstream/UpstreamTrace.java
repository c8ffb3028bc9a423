package io.aigw.runtime.upstream;

import java.util.Optional;

/**
 * What tracing asks of an attempt, left in the request's context before each attempt whose span
 * records; an attempt that finds none does only what an untraced one does. It asks the attempt to
 * read its answer's {@link io.aigw.runtime.metering.ResponseFacts} (model, id, finish reasons), and,
 * when the gateway is set to ({@code gateway.tracing.propagate-upstream}), to send the W3C trace
 * context on to its provider.
 *
 * @param traceparent the attempt's own span, as {@code traceparent}, when the context goes on
 * @param tracestate  the caller's {@code tracestate}, when the context goes on and the caller sent one
 */
public record UpstreamTrace(Optional<String> traceparent, Optional<String> tracestate) {
    /** Read the answer's facts; send no trace context on. */
    public static final UpstreamTrace FACTS_ONLY = new UpstreamTrace(Optional.empty(), Optional.empty());
}
