package io.aigw.runtime.upstream;

/**
 * How one upstream call ended, told apart by what the caller has seen: only a call that failed
 * before its first byte reached the caller leaves the caller's answer still to be given, by the
 * failure itself or by another provider.
 */
sealed interface CallOutcome {

    /**
     * The upstream's answer went to the caller: a whole answer, or a stream that ran to its end or
     * until the caller left.
     *
     * @param status the status the caller got
     */
    record Answered(int status) implements CallOutcome {
    }

    /**
     * Nothing reached the caller: the upstream was unreachable or silent, or answered with an error
     * status, which {@code failure} holds in the OpenAI shape.
     */
    record FailedBeforeFirstByte(Failure failure) implements CallOutcome {
    }

    /**
     * A stream broke after its first bytes reached the caller, who got one error event and the end
     * of the stream; nothing more can be sent.
     *
     * @param message what the error event said
     */
    record FailedAfterFirstByte(String message) implements CallOutcome {
    }
}
