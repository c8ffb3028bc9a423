package io.aigw.runtime.upstream;

import io.aigw.runtime.config.UpstreamTimeouts;
import io.aigw.runtime.observe.CallReport;
import io.aigw.runtime.observe.GatewayMetrics;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.upstream.CallOutcome.FailedBeforeFirstByte;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.lang.System.Logger.Level;
import java.util.function.Function;

/**
 * One call to one upstream: sends the request along a route, relays a successful answer to the
 * caller (whole, or as a stream) and tells how it ended. An error answer is read and returned, not
 * sent: whether the caller gets it or another provider is tried first is {@link ChatForwarder}'s to
 * decide, by {@link FallbackChain} for {@code gateway/auto}.
 *
 * <p>The first-byte and idle timeouts hold from the request to the last byte read: a deadline runs
 * for the whole call, allowing {@code first-byte} for the headers and {@code idle} between reads.
 */
final class UpstreamCall {
    private static final System.Logger LOG = System.getLogger(UpstreamCall.class.getName());

    private final Function<Provider, UpstreamClient> clients;
    private final UpstreamTimeouts timeouts;
    private final Deadlines deadlines;
    private final KeyCooldowns cooldowns;
    private final GatewayMetrics metrics;
    private final EventStreamRelay streams;

    UpstreamCall(Function<Provider, UpstreamClient> clients, UpstreamTimeouts timeouts, Deadlines deadlines,
                 KeyCooldowns cooldowns, GatewayMetrics metrics) {
        this.clients = clients;
        this.timeouts = timeouts;
        this.deadlines = deadlines;
        this.cooldowns = cooldowns;
        this.metrics = metrics;
        this.streams = new EventStreamRelay(timeouts, metrics);
    }

    CallOutcome attempt(UpstreamRequest request, Route route, ServerResponse response, CallReport report) {
        Provider provider = route.provider();
        report.attempt(provider.prefix(), route.upstreamModel());
        byte[] body = request.bodyFor(route);
        long started = System.nanoTime();
        try (Deadlines.Deadline deadline = deadlines.start(timeouts.firstByte().toNanos())) {
            HttpClientResponse upstream;
            try {
                upstream = clients.apply(provider).post(body, request.stream(), report.requestId());
            } catch (RuntimeException e) {
                report.waitedOnUpstream(System.nanoTime() - started);
                return new FailedBeforeFirstByte(deadline.expired()
                        ? Failure.noHeadersWithin(provider, timeouts.firstByte()) : Failure.unreachable(provider, e));
            }
            long headersAt = System.nanoTime();
            deadline.progress(timeouts.idle().toNanos());
            try (upstream) {
                InputStream in = new ProgressInputStream(upstream.inputStream(), deadline);
                UpstreamStatus status = UpstreamStatus.of(upstream.status().code());
                if (status == UpstreamStatus.SUCCESS && request.stream() && RelayedHeaders.isEventStream(upstream)) {
                    report.waitedOnUpstream(headersAt - started);
                    return streams.relay(upstream, in, provider, response, deadline, request.addsUsage(route),
                            report);
                }
                return whole(upstream, in, status, route, deadline, response, report, started);
            }
        }
    }

    /** Reads an answer whole, then relays it if it is a success, or returns it as the failure it is. */
    private CallOutcome whole(HttpClientResponse upstream, InputStream in, UpstreamStatus status, Route route,
                              Deadlines.Deadline deadline, ServerResponse response, CallReport report,
                              long started) {
        Provider provider = route.provider();
        byte[] answer;
        try {
            answer = UpstreamBody.read(upstream, in);
        } catch (IOException | RuntimeException e) {
            report.waitedOnUpstream(System.nanoTime() - started);
            return new FailedBeforeFirstByte(deadline.expired()
                    ? Failure.stalledFor(provider, timeouts.idle()) : Failure.unreachable(provider, e));
        }
        int code = upstream.status().code();
        if (status == UpstreamStatus.SUCCESS) {
            report.waitedOnUpstream(System.nanoTime() - started);
            return JsonRelay.send(response, upstream, code, answer, provider, report);
        }
        byte[] error = UpstreamErrors.normalize(code, answer, provider.prefix());
        report.waitedOnUpstream(System.nanoTime() - started);
        if (status == UpstreamStatus.KEY_REJECTED) {
            cooldowns.markRejected(provider.name());
            metrics.keyCooldown(provider.prefix());
            LOG.log(Level.WARNING, "Upstream " + provider.prefix() + " rejected the gateway's key (" + code
                    + "); gateway/auto skips it during the cool-down. Check " + provider.apiKeyVariable() + ".");
        }
        return new FailedBeforeFirstByte(Failure.answered(code, error, upstream));
    }
}
