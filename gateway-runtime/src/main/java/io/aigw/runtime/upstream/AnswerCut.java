package io.aigw.runtime.upstream;

import io.aigw.runtime.config.UpstreamTimeouts;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.upstream.CallOutcome.CallerLeft;
import io.aigw.runtime.upstream.CallOutcome.FailedAfterFirstByte;

/** What cut an answer short after its first bytes reached the caller, and how that is told. */
final class AnswerCut {
    static final int UPSTREAM_BROKE = 502;
    static final int TIMED_OUT = 504;

    private AnswerCut() {
    }

    /**
     * The outcome of a stream, or of a plain answer when {@code stream} is false, whose upstream read
     * failed with the deadline's {@code reason}: null when the connection itself broke.
     */
    static CallOutcome of(Deadlines.Reason reason, Provider provider, UpstreamTimeouts timeouts, boolean stream) {
        String what = stream ? "stream" : "answer";
        if (reason == null) {
            return new FailedAfterFirstByte(UPSTREAM_BROKE, "The connection to upstream " + provider.prefix()
                    + " broke mid-" + what + ".", stream);
        }
        return switch (reason) {
            case SILENT -> new FailedAfterFirstByte(TIMED_OUT, "Upstream " + provider.prefix() + " sent nothing for "
                    + Failure.seconds(timeouts.idle()) + " (gateway.timeouts.idle); the " + what + " was cut.", stream);
            case OUT_OF_TIME -> new FailedAfterFirstByte(TIMED_OUT, "The call to upstream " + provider.prefix()
                    + " took longer than " + Failure.seconds(timeouts.total()) + " (gateway.timeouts.total); the "
                    + what + " was cut.", stream);
            case CALLER_LEFT -> new CallerLeft();
        };
    }
}
