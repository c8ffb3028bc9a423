package io.aigw.runtime.limits;

import java.util.Optional;

/** What a {@link RateLimiter} answered to a reservation. */
public sealed interface Decision {

    /**
     * The request may go ahead; {@code reservation} must be settled or released when it ends.
     *
     * @param quota the key's window after this reservation; empty when the limit store could not be
     *              asked and {@code on-store-failure: allow} let the request through unchecked
     */
    record Admitted(Reservation reservation, Optional<Quota> quota) implements Decision {
    }

    /**
     * The request does not fit in the key's window.
     *
     * @param limit {@code requests}, {@code tokens} or {@code budget}: the limit it would pass
     */
    record Refused(Quota quota, String limit) implements Decision {
    }

    /** The limit store could not be asked and {@code on-store-failure: deny} refuses the request. */
    record Unavailable() implements Decision {
    }
}
