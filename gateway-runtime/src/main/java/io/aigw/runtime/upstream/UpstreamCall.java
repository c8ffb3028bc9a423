package io.aigw.runtime.upstream;

import io.aigw.runtime.config.UpstreamTimeouts;
import io.aigw.runtime.metering.TokenUsage;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.plugin.UpstreamKey;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.transport.UpstreamBodyStream;
import io.aigw.runtime.upstream.Attempt.Ending;
import io.aigw.runtime.upstream.CallOutcome.CallerLeft;
import io.aigw.runtime.upstream.CallOutcome.FailedBeforeFirstByte;
import io.aigw.runtime.waits.Waits;
import io.helidon.webclient.api.HttpClientResponse;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * One call to one upstream: sends the request along a route, relays a successful answer to the
 * caller (whole, or as a stream) and tells how it ended, with the {@link Attempt}'s record. An error
 * answer is read and returned, not sent: whether the caller gets it or another provider is tried
 * first is the exchange's to decide, by {@link FallbackChain} for {@code gateway/auto}.
 *
 * <p>The timeouts hold from the request to the last byte read: a deadline runs for the whole call,
 * allowing {@code first-byte} for the headers and {@code idle} between reads, and ends the call at
 * the request's {@code total} or when its caller leaves, whichever comes first.
 */
final class UpstreamCall {
    private static final System.Logger LOG = System.getLogger(UpstreamCall.class.getName());
    /** An error answer is a message; an upstream that sends more has the rest dropped unread. */
    private static final int MAX_ERROR_BODY = 64 * 1024;

    private final BiFunction<Provider, UpstreamKey, UpstreamClient> clients;
    private final UpstreamTimeouts timeouts;
    private final Deadlines deadlines;
    private final EventStreamRelay streams;
    private final JsonRelay answers;
    /**
     * Whether tracing is on. Off, no attempt has an {@link UpstreamTrace} to find, and looking for
     * one in the request's context walks every context above it: 0.17 us a request (issue 50).
     */
    private final boolean traced;

    UpstreamCall(BiFunction<Provider, UpstreamKey, UpstreamClient> clients, UpstreamTimeouts timeouts,
                 Deadlines deadlines, boolean traced) {
        this.clients = clients;
        this.traced = traced;
        this.timeouts = timeouts;
        this.deadlines = deadlines;
        this.streams = new EventStreamRelay(timeouts);
        this.answers = new JsonRelay(timeouts);
    }

    /**
     * @param key          the upstream key to call with, one of the route's provider's
     * @param waitedBefore the request's wait on the upstreams tried before this one
     */
    CallOutcome attempt(UpstreamRequest request, Route route, UpstreamKey key, CallerSide caller, long waitedBefore) {
        return call(request, route, key, caller, waitedBefore).withKey(key.name());
    }

    private CallOutcome call(UpstreamRequest request, Route route, UpstreamKey key, CallerSide caller,
                             long waitedBefore) {
        Provider provider = route.provider();
        if (caller.hangup().callerLeftAlready()) {
            return new CallerLeft(Attempt.unanswered(route, Ending.CALLER_LEFT, CallerLeft.STATUS, TokenUsage.NONE, 0));
        }
        if (System.nanoTime() - caller.endsAt() >= 0) {
            return failed(route, Failure.outOfTime(provider, timeouts.total()), 0);
        }
        byte[] body = request.bodyFor(route);
        Consumer<String> created = id -> request.created(route, key.name(), id);
        long started = System.nanoTime();
        Optional<UpstreamTrace> trace = trace(caller);
        boolean factsWanted = trace.isPresent();
        try (Deadlines.Deadline deadline = deadlines.start(timeouts.firstByte().toNanos(), caller.endsAt())) {
            caller.hangup().watch(deadline);
            HttpClientResponse upstream;
            // Helidon's client does not tell when it has a connection: the wait told of is the whole
            // of it, to the answer's headers. Looked for only when tracing asked something of this attempt.
            Waits.Wait headers = trace.isEmpty() ? Waits.Wait.NONE
                    : caller.context().get(Waits.class).orElse(Waits.NONE).begin(Waits.What.UPSTREAM_HEADERS);
            try {
                upstream = clients.apply(provider, key).post(request.api(), request.pathBelowApi(), request.headers(),
                        body, request.stream(), caller.requestId(), trace);
            } catch (RuntimeException e) {
                return ended(route, deadline, e, true, System.nanoTime() - started);
            } finally {
                headers.close();
            }
            long headersAt = System.nanoTime();
            deadline.progress(timeouts.idle().toNanos());
            try (upstream) {
                UpstreamBodyStream answer = UpstreamBodyStream.of(upstream);
                InputStream in = new ProgressInputStream(answer, deadline);
                UpstreamStatus status = UpstreamStatus.of(upstream.status().code());
                if (status != UpstreamStatus.SUCCESS) {
                    return refused(upstream, in, status, route, key, request.format(), deadline, started);
                }
                if (!request.stream()) {
                    return answer(upstream, in, route, request.format(), created, factsWanted, deadline, caller,
                            started, waitedBefore);
                }
                long waited = headersAt - started;
                if (!RelayedHeaders.isEventStream(upstream)) {
                    return failed(route, Failure.notAnEventStream(provider, RelayedHeaders.contentType(upstream, "")),
                            waited);
                }
                return streams.relay(upstream, in, answer.endsByClose(), route, caller, deadline, request.format(),
                        request.addsUsage(route), created, factsWanted, waited, waitedBefore);
            }
        }
    }

    /** What tracing asks of this attempt, if it is on: its trace context to send on, or the answer's facts. */
    private Optional<UpstreamTrace> trace(CallerSide caller) {
        return traced ? caller.context().get(UpstreamTrace.class) : Optional.empty();
    }

    /** Sends a call about what {@code provider} keeps, and relays its answer as a plain one. */
    CallOutcome stored(StoredCall call, Provider provider, UpstreamKey key, CallerSide caller) {
        // No model: the call is about something made earlier, whatever model made it.
        Route route = new Route(provider, "");
        if (caller.hangup().callerLeftAlready()) {
            return new CallerLeft(Attempt.unanswered(route, Ending.CALLER_LEFT, CallerLeft.STATUS, TokenUsage.NONE, 0));
        }
        long started = System.nanoTime();
        try (Deadlines.Deadline deadline = deadlines.start(timeouts.firstByte().toNanos(), caller.endsAt())) {
            caller.hangup().watch(deadline);
            HttpClientResponse upstream;
            try {
                upstream = clients.apply(provider, key).send(call, caller.requestId(), trace(caller));
            } catch (RuntimeException e) {
                return ended(route, deadline, e, true, System.nanoTime() - started);
            }
            deadline.progress(timeouts.idle().toNanos());
            try (upstream) {
                InputStream in = new ProgressInputStream(UpstreamBodyStream.of(upstream), deadline);
                UpstreamStatus status = UpstreamStatus.of(upstream.status().code());
                if (status != UpstreamStatus.SUCCESS) {
                    return refused(upstream, in, status, route, key, WireFormat.RESPONSES, deadline, started);
                }
                return answer(upstream, in, route, WireFormat.RESPONSES, id -> { }, false, deadline, caller, started,
                        0);
            }
        }
    }

    /**
     * Relays a 2xx plain answer, or returns why it cannot be.
     *
     * @param created     told the id of what the upstream created, when the answer names one
     * @param factsWanted whether the answer's model, id and finish reasons are read for tracing
     */
    private CallOutcome answer(HttpClientResponse upstream, InputStream in, Route route, WireFormat format,
                               Consumer<String> created, boolean factsWanted, Deadlines.Deadline deadline,
                               CallerSide caller, long started, long waitedBefore) {
        int code = upstream.status().code();
        UpstreamBody start;
        try {
            start = UpstreamBody.read(upstream, in, JsonRelay.WHOLE_LIMIT);
        } catch (IOException | RuntimeException e) {
            return ended(route, deadline, e, false, System.nanoTime() - started);
        }
        // For a larger answer, only the wait for its first part: the rest arrives as the caller receives it.
        long waited = System.nanoTime() - started;
        if (!start.canBeJsonObject()) {
            start.finish(in);
            return failed(route, Failure.notJson(route.provider(), code), waited);
        }
        // Remembered before the caller has the answer, which may ask after it at once.
        format.createdIn(start.bytes(), 0, start.bytes().length).ifPresent(created);
        if (start.whole()) {
            CallOutcome sent = JsonRelay.send(caller, upstream, code, start.bytes(), route, format.usage(),
                    factsWanted, waited, waitedBefore);
            start.finish(in);
            return sent;
        }
        return answers.relay(caller, upstream, code, start, in, route, format.usage(), factsWanted, deadline, waited,
                waitedBefore);
    }

    /** Reads an error answer, up to {@link #MAX_ERROR_BODY}, and returns it as the failure it is. */
    private CallOutcome refused(HttpClientResponse upstream, InputStream in, UpstreamStatus status, Route route,
                                UpstreamKey key, WireFormat format, Deadlines.Deadline deadline, long started) {
        Provider provider = route.provider();
        int code = upstream.status().code();
        byte[] answer;
        try {
            UpstreamBody body = UpstreamBody.read(upstream, in, MAX_ERROR_BODY);
            body.finish(in);
            answer = body.bytes();
        } catch (IOException | RuntimeException e) {
            return ended(route, deadline, e, false, System.nanoTime() - started);
        }
        byte[] error = UpstreamErrors.normalize(code, answer, provider.prefix());
        long waited = System.nanoTime() - started;
        // An error that reports usage was billed all the same.
        TokenUsage usage = format.usage().inAnswer(answer, 0, answer.length).orElse(TokenUsage.NONE);
        if (status == UpstreamStatus.KEY_REJECTED) {
            LOG.log(Level.WARNING, RejectedKeyLog.line(provider, key, code, UpstreamErrors.message(error)));
            return new FailedBeforeFirstByte(Attempt.unanswered(route, Ending.KEY_REJECTED, code, usage, waited),
                    Failure.keyRejected(provider, code));
        }
        return new FailedBeforeFirstByte(Attempt.unanswered(route, Ending.REFUSED, code, usage, waited),
                Failure.answered(code, error, upstream));
    }

    /** An attempt that got no answer from its upstream. */
    private static FailedBeforeFirstByte failed(Route route, Failure failure, long waited) {
        return new FailedBeforeFirstByte(
                Attempt.unanswered(route, Ending.FAILED, failure.status().code(), TokenUsage.NONE, waited), failure);
    }

    /**
     * How a wait on the upstream that failed with {@code cause} before the caller got a byte ends:
     * as the deadline says (silent, out of time, caller gone), else the upstream is unreachable.
     */
    private CallOutcome ended(Route route, Deadlines.Deadline deadline, Exception cause, boolean forHeaders,
                              long waited) {
        Provider provider = route.provider();
        Deadlines.Reason reason = deadline.reason();
        if (reason == null) {
            LOG.log(Level.WARNING, "Upstream " + provider.prefix() + " at " + provider.baseUrl() + " failed: "
                    + ConnectFailure.detail(cause));
            return failed(route, Failure.unreachable(provider, cause), waited);
        }
        return switch (reason) {
            case SILENT -> failed(route, forHeaders ? Failure.noHeadersWithin(provider, timeouts.firstByte())
                    : Failure.stalledFor(provider, timeouts.idle()), waited);
            case OUT_OF_TIME -> failed(route, Failure.outOfTime(provider, timeouts.total()), waited);
            case CALLER_LEFT -> new CallerLeft(
                    Attempt.unanswered(route, Ending.CALLER_LEFT, CallerLeft.STATUS, TokenUsage.NONE, waited));
            case STOPPED -> failed(route, Failure.shuttingDown(), waited);
        };
    }
}
