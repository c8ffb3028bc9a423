package io.aigw.runtime.upstream;

import io.aigw.runtime.config.UpstreamTimeouts;
import io.aigw.runtime.metering.AnswerReading;
import io.aigw.runtime.metering.ResponseFacts;
import io.aigw.runtime.metering.TextEstimate;
import io.aigw.runtime.metering.TokenUsage;
import io.aigw.runtime.metering.UsageFormat;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.pricing.Cost;
import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.upstream.CallOutcome.Answered;
import io.aigw.runtime.upstream.CallOutcome.CallerLeft;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webserver.ServerConnectionException;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Relays a plain answer: the upstream's status and body as they came, its relayed headers, and the
 * gateway's own that name the provider and the time taken. An answer up to {@link #WHOLE_LIMIT}
 * is read whole first ({@link #send}); a larger one goes through as it arrives ({@link #relay}),
 * so that no answer holds more of the heap than a small one does.
 */
final class JsonRelay {
    /**
     * Answers up to this size are read whole before the caller gets a byte, so that a failure while
     * reading one can still be answered properly or passed to another provider. Chat completions
     * are a few kilobytes; as many of these as requests in flight fit the heap the gateway ships with.
     */
    static final int WHOLE_LIMIT = 64 * 1024;
    /** The end of a larger answer, where its usage is found: providers put it last, or nearly. */
    private static final int TAIL = 16 * 1024;
    private static final int COPY_BUFFER = 16 * 1024;

    private final UpstreamTimeouts timeouts;

    JsonRelay(UpstreamTimeouts timeouts) {
        this.timeouts = timeouts;
    }

    /**
     * Sends an answer read whole. A caller that is gone by then still has the answer's usage
     * counted, since the upstream billed it all the same.
     *
     * @param usage        where the API reports usage
     * @param factsWanted  whether the answer's {@link ResponseFacts} are read too, in the same walk
     * @param waited       this attempt's wait for the answer
     * @param waitedBefore the request's wait on the upstreams tried before this one
     */
    static CallOutcome send(CallerSide caller, HttpClientResponse upstream, int status, byte[] answer, Route route,
                            UsageFormat usage, boolean factsWanted, long waited, long waitedBefore) {
        ServerResponse response = caller.response();
        Provider provider = route.provider();
        startAnswer(response, upstream, status, provider, caller.startedNanos(), waitedBefore + waited);
        if (caller.costHeader().isPresent()) {
            AnswerReading reading = read(usage, answer, factsWanted);
            Cost cost = caller.costHeader().get().cost(provider.prefix(), route.upstreamModel(),
                    reading.usage().orElse(TokenUsage.NONE));
            response.header(Upstream.COST_HEADER, cost.amount().map(Usd::toString).orElse("unknown"));
            return sent(response, answer, route, status, usage, factsWanted, Optional.of(reading), waited);
        }
        return sent(response, answer, route, status, usage, factsWanted, Optional.empty(), waited);
    }

    /** Sends the answer; its usage (and facts) are read after unless they were {@code read} before. */
    private static CallOutcome sent(ServerResponse response, byte[] answer, Route route, int status,
                                    UsageFormat usage, boolean factsWanted, Optional<AnswerReading> read,
                                    long waited) {
        try {
            response.send(answer);
        } catch (UncheckedIOException | ServerConnectionException e) {
            return new CallerLeft(Attempt.unanswered(route, Attempt.Ending.CALLER_LEFT, CallerLeft.STATUS,
                    read.orElseGet(() -> read(usage, answer, false)).usage().orElse(TokenUsage.NONE), waited));
        }
        long sentAt = System.nanoTime();
        AnswerStart start = new AnswerStart(route, false, waited, sentAt);
        // Counted after the answer is out, so that the caller does not wait for it.
        if (read.isEmpty() && !factsWanted) {
            return new Answered(start.whole(status, usage.inAnswer(answer, 0, answer.length).orElse(TokenUsage.NONE),
                    ResponseFacts.NONE, 0));
        }
        AnswerReading reading = read.orElseGet(() -> usage.readAnswer(answer, 0, answer.length));
        return new Answered(start.whole(status, reading.usage().orElse(TokenUsage.NONE), reading.facts(), 0));
    }

    /** The answer's usage, with its facts when they are wanted, read in one walk. */
    private static AnswerReading read(UsageFormat usage, byte[] answer, boolean factsWanted) {
        return factsWanted ? usage.readAnswer(answer, 0, answer.length)
                : new AnswerReading(usage.inAnswer(answer, 0, answer.length), ResponseFacts.NONE);
    }

    /**
     * Relays an answer larger than {@link #WHOLE_LIMIT}, starting with the part already read, then
     * the rest of {@code in} as it arrives. Its usage is read from its last {@link #TAIL} bytes; an
     * answer cut short is charged by the text that reached the caller ({@link TextEstimate.Tally}).
     */
    CallOutcome relay(CallerSide caller, HttpClientResponse upstream, int status, UpstreamBody start,
                      InputStream in, Route route, UsageFormat usageFormat, boolean factsWanted,
                      Deadlines.Deadline deadline, long waited, long waitedBefore) {
        ServerResponse response = caller.response();
        startAnswer(response, upstream, status, route.provider(), caller.startedNanos(), waitedBefore + waited);
        OptionalLong length = upstream.headers().contentLength();
        if (length.isPresent()) {
            // Sent with the upstream's length, not chunked: the caller sees a cut answer as cut.
            response.header(HeaderNames.CONTENT_LENGTH, Long.toString(length.getAsLong()));
        }
        AnswerStart begun = new AnswerStart(route, false, waited, System.nanoTime());
        // Its model and id open the answer; a finish reason past its first part is not read.
        ResponseFacts facts = factsWanted
                ? usageFormat.factsInStart(start.bytes(), 0, start.bytes().length) : ResponseFacts.NONE;
        byte[] tail = new byte[TAIL];
        int tailLength = keepTail(tail, 0, start.bytes(), start.bytes().length);
        TextEstimate.Tally relayed = new TextEstimate.Tally();
        OutputStream out;
        try {
            out = response.outputStream();
            out.write(start.bytes());
        } catch (IOException | UncheckedIOException | ServerConnectionException e) {
            // Helidon reports a write to a connection the caller closed as a ServerConnectionException.
            return new CallerLeft(begun.cut(CallerLeft.STATUS, TokenUsage.NONE, facts, 0));
        }
        relayed.add(start.bytes(), 0, start.bytes().length);
        byte[] buffer = new byte[COPY_BUFFER];
        while (true) {
            int n;
            try {
                n = in.read(buffer);
            } catch (IOException | RuntimeException e) {
                // The client reports a connection that ended short of the body's length unchecked.
                deadline.close();
                return AnswerCut.of(deadline.reason(), timeouts, begun, TokenUsage.NONE, facts, relayed.textBytes());
            }
            if (n < 0) {
                break;
            }
            tailLength = keepTail(tail, tailLength, buffer, n);
            try {
                out.write(buffer, 0, n);
            } catch (IOException | UncheckedIOException | ServerConnectionException e) {
                return new CallerLeft(begun.cut(CallerLeft.STATUS, TokenUsage.NONE, facts, relayed.textBytes()));
            }
            relayed.add(buffer, 0, n);
        }
        TokenUsage usage = usageFormat.inAnswer(tail, 0, tailLength).orElse(TokenUsage.NONE);
        try {
            out.close();
        } catch (IOException | UncheckedIOException e) {
            // The whole answer was written; only its end did not reach a caller that was leaving.
        }
        return new Answered(begun.whole(status, usage, facts, relayed.textBytes()));
    }

    private static void startAnswer(ServerResponse response, HttpClientResponse upstream, int status,
                                    Provider provider, long startedNanos, long upstreamNanos) {
        response.status(Status.create(status));
        response.header(HeaderNames.CONTENT_TYPE, RelayedHeaders.contentType(upstream, "application/json"));
        response.header(Upstream.PROVIDER_HEADER, provider.prefix());
        response.header(ServerTiming.HEADER, ServerTiming.value(startedNanos, upstreamNanos));
        RelayedHeaders.addTo(response, RelayedHeaders.of(upstream));
    }

    /** Keeps the last {@code tail.length} bytes seen in {@code tail}, adding {@code n} of {@code bytes}; its new length. */
    private static int keepTail(byte[] tail, int tailLength, byte[] bytes, int n) {
        if (n >= tail.length) {
            System.arraycopy(bytes, n - tail.length, tail, 0, tail.length);
            return tail.length;
        }
        int kept = Math.min(tailLength, tail.length - n);
        System.arraycopy(tail, tailLength - kept, tail, 0, kept);
        System.arraycopy(bytes, 0, tail, kept, n);
        return kept + n;
    }
}
