package io.aigw.runtime.upstream;

import io.aigw.runtime.metering.ReportedUsage;
import io.aigw.runtime.config.UpstreamTimeouts;
import io.aigw.runtime.observe.CallReport;
import io.aigw.runtime.observe.GatewayMetrics;
import io.aigw.runtime.metering.TokenUsage;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.transport.UpstreamBodyStream;
import io.aigw.runtime.upstream.CallOutcome.CallerLeft;
import io.aigw.runtime.upstream.CallOutcome.FailedBeforeFirstByte;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.io.InterruptedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.function.BooleanSupplier;
import java.util.Optional;
import java.util.function.Function;

/**
 * One call to one upstream: sends the request along a route, relays a successful answer to the
 * caller (whole, or as a stream) and tells how it ended. An error answer is read and returned, not
 * sent: whether the caller gets it or another provider is tried first is {@link ChatForwarder}'s to
 * decide, by {@link FallbackChain} for {@code gateway/auto}.
 *
 * <p>The timeouts hold from the request to the last byte read: a deadline runs for the whole call,
 * allowing {@code first-byte} for the headers and {@code idle} between reads, and ends the call at
 * the request's {@code total} or when its caller leaves, whichever comes first.
 */
final class UpstreamCall {
    private static final System.Logger LOG = System.getLogger(UpstreamCall.class.getName());
    /** An error answer is a message; an upstream that sends more has the rest dropped unread. */
    private static final int MAX_ERROR_BODY = 64 * 1024;

    private final Function<Provider, UpstreamClient> clients;
    private final UpstreamTimeouts timeouts;
    private final Deadlines deadlines;
    private final KeyCooldowns cooldowns;
    private final GatewayMetrics metrics;
    private final EventStreamRelay streams;
    private final JsonRelay answers;
    /** Whether the gateway is stopping: a wait that fails then was ended by the stop, not the upstream. */
    private final BooleanSupplier stopping;

    UpstreamCall(Function<Provider, UpstreamClient> clients, UpstreamTimeouts timeouts, Deadlines deadlines,
                 KeyCooldowns cooldowns, GatewayMetrics metrics, BooleanSupplier stopping) {
        this.clients = clients;
        this.stopping = stopping;
        this.timeouts = timeouts;
        this.deadlines = deadlines;
        this.cooldowns = cooldowns;
        this.metrics = metrics;
        this.streams = new EventStreamRelay(timeouts, metrics);
        this.answers = new JsonRelay(timeouts);
    }

    /**
     * The caller's side of one request, the same for every provider tried.
     *
     * @param endsAt     when the request's total time is up, in {@link System#nanoTime()}
     * @param costHeader the prices that state a plain answer's cost in a header; empty when it is off
     */
    record CallerSide(ServerResponse response, CallReport report, Hangup hangup, long endsAt,
                      Optional<PriceBook> costHeader) {
    }

    CallOutcome attempt(UpstreamRequest request, Route route, CallerSide caller) {
        Provider provider = route.provider();
        CallReport report = caller.report();
        report.attempt(provider.prefix(), route.upstreamModel());
        if (caller.hangup().callerLeftAlready()) {
            return new CallerLeft();
        }
        if (System.nanoTime() - caller.endsAt() >= 0) {
            return new FailedBeforeFirstByte(Failure.outOfTime(provider, timeouts.total()));
        }
        byte[] body = request.bodyFor(route);
        long started = System.nanoTime();
        try (Deadlines.Deadline deadline = deadlines.start(timeouts.firstByte().toNanos(), caller.endsAt())) {
            caller.hangup().watch(deadline);
            HttpClientResponse upstream;
            try {
                upstream = clients.apply(provider).post(body, request.stream(), report.requestId());
            } catch (RuntimeException e) {
                report.waitedOnUpstream(System.nanoTime() - started);
                return ended(provider, deadline, e, true);
            }
            long headersAt = System.nanoTime();
            deadline.progress(timeouts.idle().toNanos());
            try (upstream) {
                UpstreamBodyStream answer = UpstreamBodyStream.of(upstream);
                InputStream in = new ProgressInputStream(answer, deadline);
                UpstreamStatus status = UpstreamStatus.of(upstream.status().code());
                if (status != UpstreamStatus.SUCCESS) {
                    return refused(upstream, in, status, provider, deadline, report, started);
                }
                if (!request.stream()) {
                    return answer(upstream, in, provider, deadline, caller, started);
                }
                report.waitedOnUpstream(headersAt - started);
                if (!RelayedHeaders.isEventStream(upstream)) {
                    return new FailedBeforeFirstByte(Failure.notAnEventStream(provider,
                            RelayedHeaders.contentType(upstream, "")));
                }
                return streams.relay(upstream, in, answer.endsByClose(), provider, caller.response(), deadline,
                        request.addsUsage(route), report);
            }
        }
    }

    /** Relays a 2xx answer to a plain request, or returns why it cannot be. */
    private CallOutcome answer(HttpClientResponse upstream, InputStream in, Provider provider,
                               Deadlines.Deadline deadline, CallerSide caller, long started) {
        CallReport report = caller.report();
        int code = upstream.status().code();
        UpstreamBody start;
        try {
            start = UpstreamBody.read(upstream, in, JsonRelay.WHOLE_LIMIT);
        } catch (IOException | RuntimeException e) {
            report.waitedOnUpstream(System.nanoTime() - started);
            return ended(provider, deadline, e, false);
        }
        // For a larger answer, only the wait for its first part: the rest arrives as the caller receives it.
        report.waitedOnUpstream(System.nanoTime() - started);
        if (!start.canBeJsonObject()) {
            return new FailedBeforeFirstByte(Failure.notJson(provider, code));
        }
        if (start.whole()) {
            return JsonRelay.send(caller.response(), upstream, code, start.bytes(), provider, report,
                    caller.costHeader());
        }
        return answers.relay(caller.response(), upstream, code, start, in, provider, deadline, report);
    }

    /** Reads an error answer, up to {@link #MAX_ERROR_BODY}, and returns it as the failure it is. */
    private CallOutcome refused(HttpClientResponse upstream, InputStream in, UpstreamStatus status, Provider provider,
                                Deadlines.Deadline deadline, CallReport report, long started) {
        int code = upstream.status().code();
        byte[] answer;
        try {
            answer = UpstreamBody.read(upstream, in, MAX_ERROR_BODY).bytes();
        } catch (IOException | RuntimeException e) {
            report.waitedOnUpstream(System.nanoTime() - started);
            return ended(provider, deadline, e, false);
        }
        byte[] error = UpstreamErrors.normalize(code, answer, provider.prefix());
        report.waitedOnUpstream(System.nanoTime() - started);
        // An error that reports usage was billed all the same.
        report.refusedByUpstream(code, ReportedUsage.inAnswer(answer, 0, answer.length).orElse(TokenUsage.NONE));
        if (status == UpstreamStatus.KEY_REJECTED) {
            cooldowns.markRejected(provider.name());
            metrics.keyCooldown(provider.prefix());
            LOG.log(Level.WARNING, RejectedKeyLog.line(provider, code, UpstreamErrors.message(error)));
            return new FailedBeforeFirstByte(Failure.keyRejected(provider, code));
        }
        return new FailedBeforeFirstByte(Failure.answered(code, error, upstream));
    }

    /**
     * How a wait on the upstream that failed with {@code cause} before the caller got a byte ends:
     * as the deadline says (silent, out of time, caller gone), else the upstream is unreachable.
     */
    private CallOutcome ended(Provider provider, Deadlines.Deadline deadline, Exception cause, boolean forHeaders) {
        Deadlines.Reason reason = deadline.reason();
        if (reason == null && stopping.getAsBoolean() && interrupted(cause)) {
            // The stop's interrupt ended the wait; it is spent, so that the answer can be written.
            Thread.interrupted();
            return new FailedBeforeFirstByte(Failure.shuttingDown());
        }
        if (reason == null) {
            LOG.log(Level.WARNING, "Upstream " + provider.prefix() + " at " + provider.baseUrl() + " failed: "
                    + ConnectFailure.detail(cause));
            return new FailedBeforeFirstByte(Failure.unreachable(provider, cause));
        }
        return switch (reason) {
            case SILENT -> new FailedBeforeFirstByte(forHeaders ? Failure.noHeadersWithin(provider, timeouts.firstByte())
                    : Failure.stalledFor(provider, timeouts.idle()));
            case OUT_OF_TIME -> new FailedBeforeFirstByte(Failure.outOfTime(provider, timeouts.total()));
            case CALLER_LEFT -> new CallerLeft();
        };
    }

    /** Whether the wait ended because this thread was interrupted (as a stop past its grace period does). */
    private static boolean interrupted(Throwable cause) {
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t instanceof ClosedByInterruptException || t instanceof InterruptedException
                    || t instanceof InterruptedIOException) {
                return true;
            }
        }
        return false;
    }
}
