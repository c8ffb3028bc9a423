package io.aigw.runtime.store;

import java.time.Duration;

/**
 * The database cannot serve now: it does not answer, or it cannot write (a full disk, a file made
 * read-only). The same request may succeed later, so a caller is told to retry and a usage record
 * is kept to be written again.
 */
public final class StoreUnavailableException extends StoreException {
    private final Duration retryAfter;

    StoreUnavailableException(String message, Throwable cause, Duration retryAfter) {
        super(message, cause);
        this.retryAfter = retryAfter;
    }

    /** How soon the store checks the database again: the earliest a retry may find it back. */
    public Duration retryAfter() {
        return retryAfter;
    }
}
