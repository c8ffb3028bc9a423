package io.aigw.runtime.upstream;

/**
 * How one upstream call ended, told apart by what the caller has seen, with the record of the
 * attempt: only a call that failed before its first byte reached the caller leaves the caller's
 * answer still to be given, by the failure itself or by another provider.
 */
public sealed interface CallOutcome {

    /** The record of the call. */
    Attempt attempt();

    /** The same outcome, its attempt made with the upstream key named {@code key}. */
    default CallOutcome withKey(String key) {
        return switch (this) {
            case Answered answered -> new Answered(answered.attempt().withKey(key));
            case FailedBeforeFirstByte(Attempt attempt, Failure failure) ->
                    new FailedBeforeFirstByte(attempt.withKey(key), failure);
            case FailedAfterFirstByte(Attempt attempt, String message, boolean answerEnds) ->
                    new FailedAfterFirstByte(attempt.withKey(key), message, answerEnds);
            case CallerLeft left -> new CallerLeft(left.attempt().withKey(key));
        };
    }

    /** The upstream's answer went to the caller whole: a plain answer, or a stream that ran to its end. */
    record Answered(Attempt attempt) implements CallOutcome {
    }

    /**
     * Nothing reached the caller: the upstream was unreachable or silent, or answered with an error
     * status, which {@code failure} holds in the OpenAI shape.
     */
    record FailedBeforeFirstByte(Attempt attempt, Failure failure) implements CallOutcome {
    }

    /**
     * The answer broke after its first bytes reached the caller; nothing more can be sent. The
     * attempt's status says how: 502 when the upstream broke, 504 when it timed out.
     *
     * @param message    what went wrong, as a stream's error event said it
     * @param answerEnds whether the caller's answer still ends in good form, as a stream does after
     *                   its error event; a plain answer cannot, and its connection closes instead, so
     *                   that the caller sees it cut rather than taking it for whole
     */
    record FailedAfterFirstByte(Attempt attempt, String message, boolean answerEnds) implements CallOutcome {
    }

    /**
     * The caller left before its answer was whole, and the upstream call ended with it; recorded as
     * 499, as nginx logs a caller that closed its connection.
     */
    record CallerLeft(Attempt attempt) implements CallOutcome {
        public static final int STATUS = 499;
    }
}
