package io.aigw.runtime.exchange;

import io.aigw.runtime.metering.Charge;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.upstream.Attempt;
import java.util.List;
import java.util.Optional;

/**
 * What became of one exchange, built from its attempts once it ended and its reservation was
 * settled: what metrics, the access log and usage records are made of.
 *
 * @param attempts       the providers called, in order; none when the gateway answered itself
 * @param status         the status it is counted with: the caller's, or for an answer cut short
 *                       after it began, how it was cut ({@link Attempt#status()}); the gateway's own
 *                       refusal's when no provider answered; 0 when it ended otherwise
 * @param firstByteNanos {@link System#nanoTime()} when the first byte of the answer (or of the
 *                       failure it got instead) went to the caller, or -1
 * @param charge         what it is charged for the provider tried last
 * @param billed         the providers tried before the last that failed yet reported usage: their
 *                       upstreams billed them
 * @param prices         the price table it was routed with
 * @param refusedBy      the key's limit that refused it ({@code requests}, {@code tokens},
 *                       {@code budget}), if one did
 */
public record ExchangeRecord(Exchange exchange, List<Attempt> attempts, int status, long firstByteNanos,
                             Charge charge, List<Billed> billed, PriceBook prices, Optional<String> refusedBy) {

    /**
     * A provider {@code gateway/auto} moved past after it answered with an error that reported usage.
     *
     * @param fallbacks how many providers failed before this one
     */
    public record Billed(Attempt attempt, int fallbacks, Charge charge) {
    }

    /** The provider tried last, or null when none was. */
    public String provider() {
        return attempts.isEmpty() ? null : last().provider();
    }

    /** The model the provider tried last was asked for, or null when none was tried. */
    public String upstreamModel() {
        return attempts.isEmpty() ? null : last().upstreamModel();
    }

    /** The name of the upstream key the provider tried last was called with, or null when none was. */
    public String upstreamKey() {
        return attempts.isEmpty() ? null : last().upstreamKey();
    }

    /** Whether the answer was relayed as a stream. */
    public boolean stream() {
        return !attempts.isEmpty() && last().stream();
    }

    /** How many providers failed before the last one tried. */
    public int fallbacks() {
        return Math.max(0, attempts.size() - 1);
    }

    /** Time spent waiting on upstreams: whole answers, or a stream's headers; failed attempts included. */
    public long upstreamNanos() {
        long nanos = 0;
        for (Attempt attempt : attempts) {
            nanos += attempt.upstreamNanos();
        }
        return nanos;
    }

    private Attempt last() {
        return attempts.get(attempts.size() - 1);
    }
}
