package io.aigw.runtime.trace;

import io.opentelemetry.api.trace.Span;

/**
 * The spans of one request, kept in its context: its server span, and the attempt span in
 * progress. A request's listener calls come one after another on its own thread, so the fields
 * need no locking.
 */
final class RequestSpans {
    final Span server;
    /** Whether the exchange stated how it ended, which then stands over the response's status. */
    boolean settled;
    Span attempt;
    long attemptStartedNanos;

    RequestSpans(Span server) {
        this.server = server;
    }
}
