package io.aigw.runtime.upstream;

import io.aigw.runtime.metering.Metered;
import io.aigw.runtime.metering.ResponseFacts;
import io.aigw.runtime.metering.TokenUsage;
import io.aigw.runtime.routing.Route;
import java.util.Locale;

/**
 * One call to one upstream, as it ended: made by the upstream layer once the call is over and
 * never changed after. An exchange's record is built from its attempts.
 *
 * @param provider         the provider's prefix
 * @param upstreamModel    the model the provider was asked for
 * @param ending           how the call ended
 * @param status           the status it is counted with: the upstream's for an answer or a refusal;
 *                         the gateway's own for the rest (502 when the upstream broke or could not
 *                         be reached, 504 when it timed out, 499 when the caller left, 503 when the
 *                         gateway stopped)
 * @param stream           whether the answer was relayed as a stream
 * @param usage            what the upstream reported, or {@link TokenUsage#NONE}
 * @param response         the answer's model, id and finish reasons, read only when tracing asks
 *                         for them ({@link UpstreamTrace}); else {@link ResponseFacts#NONE}
 * @param relayedTextBytes the bytes of generated text relayed, for an estimate where no usage was
 *                         reported; 0 for a plain answer read whole
 * @param upstreamNanos    time spent waiting on the upstream: for its whole answer, the first part
 *                         of a larger one, or a stream's headers
 * @param firstByteNanos   {@link System#nanoTime()} when the answer's first byte went to the
 *                         caller, or -1 when none did
 * @param upstreamKey      the name of the upstream key it was made with, or null when none was chosen
 */
public record Attempt(String provider, String upstreamModel, Ending ending, int status, boolean stream,
                      TokenUsage usage, ResponseFacts response, long relayedTextBytes, long upstreamNanos, long firstByteNanos,
                      String upstreamKey) implements Metered {

    /** How a call to an upstream ended. */
    public enum Ending {
        /** Its successful answer reached the caller whole. */
        ANSWERED,
        /** Its successful answer began to reach the caller and did not end whole. */
        CUT,
        /** It answered with an error status. */
        REFUSED,
        /** It refused the gateway's own key (401, 403): the key cools down. */
        KEY_REJECTED,
        /** It gave no answer: unreachable, silent, out of time, not JSON, or the gateway stopped. */
        FAILED,
        /** The caller left before the answer began. */
        CALLER_LEFT;

        private final String label = name().toLowerCase(Locale.ROOT);

        /** Its name in lower case, as metrics and traces show it. */
        public String label() {
            return label;
        }
    }

    /** An attempt that ended before the caller was sent a byte of its answer. */
    static Attempt unanswered(Route route, Ending ending, int status, TokenUsage usage, long upstreamNanos) {
        return new Attempt(route.provider().prefix(), route.upstreamModel(), ending, status, false, usage,
                ResponseFacts.NONE, 0, upstreamNanos, -1, null);
    }

    /** The same attempt, made with the upstream key named {@code key}. */
    Attempt withKey(String key) {
        return new Attempt(provider, upstreamModel, ending, status, stream, usage, response, relayedTextBytes,
                upstreamNanos, firstByteNanos, key);
    }

    /**
     * Whether the upstream's successful answer began to reach the caller, whole or not: the call was
     * made and its tokens spent.
     */
    public boolean answerBegan() {
        return ending == Ending.ANSWERED || ending == Ending.CUT;
    }

    /**
     * Whether its upstream billed it: its answer began, or it failed yet reported usage (an error
     * that reports usage was billed all the same).
     */
    public boolean billed() {
        return answerBegan() || usage != TokenUsage.NONE;
    }

    @Override
    public boolean chargedByText() {
        return stream || ending == Ending.CUT;
    }

    @Override
    public boolean refused() {
        return ending == Ending.REFUSED || ending == Ending.KEY_REJECTED;
    }
}
