package io.aigw.runtime.upstream;

import java.util.Optional;

/**
 * The W3C trace context an attempt sends on to its provider, when the gateway is set to
 * ({@code gateway.tracing.propagate-upstream}): left in the request's context by tracing before
 * each attempt, read by the attempt as it sends its request.
 *
 * @param traceparent the attempt's own span, as {@code traceparent}
 * @param tracestate  the caller's {@code tracestate}, when it sent one
 */
public record UpstreamTrace(String traceparent, Optional<String> tracestate) {
}
