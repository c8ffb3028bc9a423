package io.aigw.runtime.upstream;

import io.aigw.runtime.metering.ReportedUsage;
import io.aigw.runtime.config.UpstreamTimeouts;
import io.aigw.runtime.observe.CallReport;
import io.aigw.runtime.metering.TextEstimate;
import io.aigw.runtime.metering.TokenUsage;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.pricing.Cost;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.pricing.Usd;
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
     * Sends an answer read whole.
     *
     * @param costHeader the prices to state the answer's cost by in {@link ChatForwarder#COST_HEADER};
     *                   empty when that header is off
     */
    static Answered send(ServerResponse response, HttpClientResponse upstream, int status, byte[] answer,
                         Provider provider, CallReport report, Optional<PriceBook> costHeader) {
        startAnswer(response, upstream, status, provider, report);
        if (costHeader.isPresent()) {
            TokenUsage usage = ReportedUsage.inAnswer(answer, 0, answer.length).orElse(TokenUsage.NONE);
            Cost cost = costHeader.get().cost(provider.prefix(), report.upstreamModel(), usage);
            response.header(ChatForwarder.COST_HEADER, cost.amount().map(Usd::toString).orElse("unknown"));
            report.usage(usage);
            response.send(answer);
            report.answered(status, System.nanoTime());
            return new Answered(status);
        }
        try {
            response.send(answer);
            report.answered(status, System.nanoTime());
        } finally {
            // Counted after the answer is out, so that the caller does not wait for it; and counted
            // when sending it failed too, since the upstream billed it all the same.
            report.usage(ReportedUsage.inAnswer(answer, 0, answer.length).orElse(TokenUsage.NONE));
        }
        return new Answered(status);
    }

    /**
     * Relays an answer larger than {@link #WHOLE_LIMIT}, starting with the part already read, then
     * the rest of {@code in} as it arrives. Its usage is read from its last {@link #TAIL} bytes; an
     * answer cut short is charged by the text that reached the caller ({@link TextEstimate.Tally}).
     */
    CallOutcome relay(ServerResponse response, HttpClientResponse upstream, int status, UpstreamBody start,
                      InputStream in, Provider provider, Deadlines.Deadline deadline, CallReport report) {
        startAnswer(response, upstream, status, provider, report);
        OptionalLong length = upstream.headers().contentLength();
        if (length.isPresent()) {
            // Sent with the upstream's length, not chunked: the caller sees a cut answer as cut.
            response.header(HeaderNames.CONTENT_LENGTH, Long.toString(length.getAsLong()));
        }
        report.answered(status, System.nanoTime());
        byte[] tail = new byte[TAIL];
        int tailLength = keepTail(tail, 0, start.bytes(), start.bytes().length);
        TextEstimate.Tally relayed = new TextEstimate.Tally();
        OutputStream out;
        try {
            out = response.outputStream();
            out.write(start.bytes());
        } catch (IOException | UncheckedIOException | ServerConnectionException e) {
            // Helidon reports a write to a connection the caller closed as a ServerConnectionException.
            return new CallerLeft();
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
                report.relayedText(relayed.textBytes());
                return AnswerCut.of(deadline.reason(), provider, timeouts, false);
            }
            if (n < 0) {
                break;
            }
            tailLength = keepTail(tail, tailLength, buffer, n);
            try {
                out.write(buffer, 0, n);
            } catch (IOException | UncheckedIOException | ServerConnectionException e) {
                report.relayedText(relayed.textBytes());
                return new CallerLeft();
            }
            relayed.add(buffer, 0, n);
        }
        report.usage(ReportedUsage.inAnswer(tail, 0, tailLength).orElse(TokenUsage.NONE));
        try {
            out.close();
        } catch (IOException | UncheckedIOException e) {
            // The whole answer was written; only its end did not reach a caller that was leaving.
        }
        return new Answered(status);
    }

    private static void startAnswer(ServerResponse response, HttpClientResponse upstream, int status,
                                    Provider provider, CallReport report) {
        response.status(Status.create(status));
        response.header(HeaderNames.CONTENT_TYPE, RelayedHeaders.contentType(upstream, "application/json"));
        response.header(ChatForwarder.PROVIDER_HEADER, provider.prefix());
        response.header(ServerTiming.HEADER, ServerTiming.value(report));
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
