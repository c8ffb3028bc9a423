package io.aigw.runtime.transport;

import io.helidon.webserver.CloseConnectionException;

/**
 * A request body arrived slower than {@code gateway.timeouts.caller-body-min-rate} allows
 * ({@link BodyPace}): thrown by the read that found it so. Whoever reads the body answers it 408 and
 * closes the connection; unanswered, it closes the connection as a failed read does.
 */
public final class CallerTooSlow extends CloseConnectionException {
    private final long minRate;

    CallerTooSlow(long minRate) {
        super("The request body arrived slower than " + minRate + " bytes a second");
        this.minRate = minRate;
    }

    /** The rate the body fell short of, in bytes a second. */
    public long minRate() {
        return minRate;
    }
}
