package io.aigw.runtime.exchange;

import io.aigw.runtime.pool.Lease;
import io.aigw.runtime.upstream.Attempt;
import io.aigw.runtime.upstream.CallOutcome;
import io.aigw.runtime.upstream.CallOutcome.Answered;
import io.aigw.runtime.upstream.CallOutcome.CallerLeft;
import io.aigw.runtime.upstream.CallOutcome.FailedAfterFirstByte;
import io.aigw.runtime.upstream.CallOutcome.FailedBeforeFirstByte;
import io.aigw.runtime.upstream.Failure;

/**
 * What an attempt showed of the upstream key it was made with, told to the key's pool: a 429 cools
 * the key, a 401/403 fails it, a 5xx, a timeout or a connection that failed count towards its
 * ejection; any other answer shows the key works. Neither the caller leaving nor the request's own
 * time running out says anything of the key.
 */
final class KeyVerdict {

    private KeyVerdict() {
    }

    /**
     * Tells {@code lease} what {@code outcome} showed.
     *
     * @return whether another key of the same provider may answer where this one failed
     */
    static boolean tell(Lease lease, CallOutcome outcome) {
        switch (outcome) {
            case Answered answered -> lease.answered(tokens(answered.attempt()));
            case FailedAfterFirstByte cut -> lease.failed("answer cut: " + cut.attempt().status());
            case CallerLeft left -> {
            }
            case FailedBeforeFirstByte(Attempt attempt, Failure failure) -> {
                int status = attempt.status();
                switch (attempt.ending()) {
                    case KEY_REJECTED -> lease.refused(status);
                    case REFUSED -> {
                        if (status == 429) {
                            lease.rateLimited(failure.retryAfter());
                        } else if (status == 408 || status >= 500) {
                            lease.failed(status + " " + failure.summary());
                        } else {
                            lease.answered(tokens(attempt));
                        }
                    }
                    case FAILED -> {
                        if (failure.movesOn()) {
                            lease.failed(failure.summary());
                        }
                    }
                    default -> {
                    }
                }
                return failure.movesOn();
            }
        }
        return false;
    }

    /** Whether a failure is the upstream's trouble rather than the key's: worth a short wait before the next key. */
    static boolean backsOff(CallOutcome outcome) {
        return outcome instanceof FailedBeforeFirstByte(Attempt attempt, Failure failure)
                && attempt.ending() != Attempt.Ending.KEY_REJECTED && attempt.status() != 429;
    }

    private static long tokens(Attempt attempt) {
        return Math.max(0, attempt.usage().totalTokens());
    }
}
