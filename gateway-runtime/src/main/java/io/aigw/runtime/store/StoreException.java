package io.aigw.runtime.store;

/**
 * The database failed; the message says what the gateway was doing. A
 * {@link StoreUnavailableException} when the database could not serve at all (unreachable, not
 * writable, full), which is worth retrying; this class itself when it refused the request.
 */
public sealed class StoreException extends RuntimeException permits StoreUnavailableException {
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
