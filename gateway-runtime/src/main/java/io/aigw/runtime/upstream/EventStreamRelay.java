package io.aigw.runtime.upstream;

import io.aigw.runtime.config.UpstreamTimeouts;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.upstream.CallOutcome.Answered;
import io.aigw.runtime.upstream.CallOutcome.CallerLeft;
import io.aigw.runtime.upstream.CallOutcome.FailedAfterFirstByte;
import io.aigw.runtime.upstream.SseRelay.CallerGone;
import io.aigw.runtime.upstream.SseRelay.UpstreamBroke;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webserver.ServerConnectionException;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.util.function.Consumer;

/**
 * Relays an upstream's event stream to the caller through an {@link SseRelay}: starts the caller's
 * answer, and ends it when either side stops. A stream that breaks, goes silent or runs out of time
 * ends with one error event, since its status has long been sent; a caller that leaves ends the
 * upstream call.
 */
final class EventStreamRelay {
    private static final System.Logger LOG = System.getLogger(EventStreamRelay.class.getName());

    private final UpstreamTimeouts timeouts;

    EventStreamRelay(UpstreamTimeouts timeouts) {
        this.timeouts = timeouts;
    }

    /**
     * @param endsByClose    whether the upstream's body ends with its connection
     *                       ({@link io.aigw.runtime.transport.UpstreamBodyStream#endsByClose})
     * @param format         the API's stream format
     * @param hideUsageChunk whether the final usage-only chunk was asked for by the gateway, not the
     *                       caller, and so is counted but not relayed
     * @param created        told the id of what the upstream created, when an event names it
     * @param factsWanted    whether the answer's {@link io.aigw.runtime.metering.ResponseFacts} are read
     * @param waited         this attempt's wait for the stream's headers
     * @param waitedBefore   the request's wait on the upstreams tried before this one
     */
    CallOutcome relay(HttpClientResponse upstream, InputStream in, boolean endsByClose, Route route,
                      CallerSide caller, Deadlines.Deadline deadline, WireFormat format, boolean hideUsageChunk,
                      Consumer<String> created, boolean factsWanted, long waited, long waitedBefore) {
        Provider provider = route.provider();
        ServerResponse response = caller.response();
        response.status(Status.OK_200);
        response.header(HeaderNames.CONTENT_TYPE, RelayedHeaders.contentType(upstream, "text/event-stream"));
        response.header(HeaderValues.CACHE_NO_CACHE);
        response.header(Upstream.PROVIDER_HEADER, provider.prefix());
        response.header(ServerTiming.HEADER, ServerTiming.value(caller.startedNanos(), waitedBefore + waited));
        RelayedHeaders.addTo(response, RelayedHeaders.of(upstream));
        OutputStream out = response.outputStream();
        AnswerStart start = new AnswerStart(route, true, waited, System.nanoTime());
        SseRelay relay = new SseRelay(in, out, format, hideUsageChunk, endsByClose, created, factsWanted);
        try {
            relay.run();
            out.close();
            return new Answered(start.whole(Status.OK_200.code(), relay.usage(), relay.facts(), relay.textBytes()));
        } catch (UpstreamBroke e) {
            // Disarm first: a pending interrupt would otherwise close the caller's socket too.
            deadline.close();
            CallOutcome cut = AnswerCut.of(deadline.reason(), timeouts, start, relay.usage(), relay.facts(),
                    relay.textBytes());
            if (cut instanceof FailedAfterFirstByte(Attempt attempt, String message, boolean ends)) {
                String code = switch (attempt.status()) {
                    case AnswerCut.TIMED_OUT -> "timeout";
                    case AnswerCut.STOPPING -> "shutting_down";
                    default -> null;
                };
                endWithError(relay, out, relay.cutEvent(message, code));
            }
            return cut;
        } catch (CallerGone | UncheckedIOException e) {
            // Leaving now closes the upstream response unread, which drops its connection: the
            // upstream stops generating for a caller who is gone.
            LOG.log(Level.DEBUG, "Caller left a stream from " + provider.prefix() + "; upstream call cancelled");
            return new CallerLeft(start.cut(CallerLeft.STATUS, relay.usage(), relay.facts(), relay.textBytes()));
        } catch (IOException | ServerConnectionException e) {
            LOG.log(Level.DEBUG, "Caller left at the end of a stream from " + provider.prefix());
            return new Answered(start.whole(Status.OK_200.code(), relay.usage(), relay.facts(), relay.textBytes()));
        }
    }

    private static void endWithError(SseRelay relay, OutputStream out, byte[] event) {
        try {
            relay.emit(event);
            out.close();
        } catch (CallerGone | UncheckedIOException | IOException | ServerConnectionException e) {
            LOG.log(Level.DEBUG, "Caller left before the error event of a broken stream");
        }
    }
}
