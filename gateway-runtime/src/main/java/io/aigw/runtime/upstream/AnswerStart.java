package io.aigw.runtime.upstream;

import io.aigw.runtime.metering.ResponseFacts;
import io.aigw.runtime.metering.TokenUsage;
import io.aigw.runtime.routing.Route;

/**
 * What is known of an attempt once its answer begins to go to the caller; each way the answer
 * ends makes the attempt's record from it.
 *
 * @param upstreamNanos  the wait on the upstream before the answer began
 * @param firstByteNanos when the answer began to go to the caller
 */
record AnswerStart(Route route, boolean stream, long upstreamNanos, long firstByteNanos) {

    /** The answer reached the caller whole. */
    Attempt whole(int status, TokenUsage usage, ResponseFacts response, long textBytes) {
        return ended(Attempt.Ending.ANSWERED, status, usage, response, textBytes);
    }

    /** The answer did not end whole; {@code status} says how it was cut ({@link Attempt#status()}). */
    Attempt cut(int status, TokenUsage usage, ResponseFacts response, long textBytes) {
        return ended(Attempt.Ending.CUT, status, usage, response, textBytes);
    }

    private Attempt ended(Attempt.Ending ending, int status, TokenUsage usage, ResponseFacts response,
                          long textBytes) {
        return new Attempt(route.provider().prefix(), route.upstreamModel(), ending, status, stream, usage, response,
                textBytes, upstreamNanos, firstByteNanos, null);
    }
}
