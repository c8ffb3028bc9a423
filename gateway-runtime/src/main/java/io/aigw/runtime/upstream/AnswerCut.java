package io.aigw.runtime.upstream;

import io.aigw.runtime.config.UpstreamTimeouts;
import io.aigw.runtime.metering.ResponseFacts;
import io.aigw.runtime.metering.TokenUsage;
import io.aigw.runtime.upstream.CallOutcome.CallerLeft;
import io.aigw.runtime.upstream.CallOutcome.FailedAfterFirstByte;

/** What cut an answer short after its first bytes reached the caller, and how that is told. */
final class AnswerCut {
    static final int UPSTREAM_BROKE = 502;
    static final int TIMED_OUT = 504;
    static final int STOPPING = 503;

    private AnswerCut() {
    }

    /**
     * The outcome of an answer (a stream, or a plain one) that {@code start} began, whose upstream
     * read failed with the deadline's {@code reason}: null when the connection itself broke.
     *
     * @param usage     what the answer reported before it was cut, or {@link TokenUsage#NONE}
     * @param response  the answer's facts read before it was cut
     * @param textBytes the bytes of generated text relayed before it was cut
     */
    static CallOutcome of(Deadlines.Reason reason, UpstreamTimeouts timeouts, AnswerStart start, TokenUsage usage,
                          ResponseFacts response, long textBytes) {
        String prefix = start.route().provider().prefix();
        boolean stream = start.stream();
        String what = stream ? "stream" : "answer";
        if (reason == null) {
            return new FailedAfterFirstByte(start.cut(UPSTREAM_BROKE, usage, response, textBytes), "The connection to upstream "
                    + prefix + " broke mid-" + what + ".", stream);
        }
        return switch (reason) {
            case SILENT -> new FailedAfterFirstByte(start.cut(TIMED_OUT, usage, response, textBytes), "Upstream " + prefix
                    + " sent nothing for " + Failure.seconds(timeouts.idle()) + " (gateway.timeouts.idle); the " + what
                    + " was cut.", stream);
            case OUT_OF_TIME -> new FailedAfterFirstByte(start.cut(TIMED_OUT, usage, response, textBytes), "The call to upstream "
                    + prefix + " took longer than " + Failure.seconds(timeouts.total()) + " (gateway.timeouts.total);"
                    + " the " + what + " was cut.", stream);
            case CALLER_LEFT -> new CallerLeft(start.cut(CallerLeft.STATUS, usage, response, textBytes));
            case STOPPED -> new FailedAfterFirstByte(start.cut(STOPPING, usage, response, textBytes),
                    "The gateway is stopping and its grace period ran out; the " + what + " was cut.", stream);
        };
    }
}
