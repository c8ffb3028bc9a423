package io.aigw.runtime.store;

/** The database failed; the message says what the gateway was doing. */
public final class StoreException extends RuntimeException {
    public StoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
