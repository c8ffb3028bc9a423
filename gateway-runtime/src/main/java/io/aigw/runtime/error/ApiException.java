package io.aigw.runtime.error;

/**
 * Ends the handling of a request with an {@link ApiError}; the routing's error handler sends it.
 * Thrown where the failure is found, so that no layer passes error values up by hand.
 */
public final class ApiException extends RuntimeException {
    private final ApiError error;

    public ApiException(ApiError error) {
        super(error.message(), null, false, false);
        this.error = error;
    }

    public ApiError error() {
        return error;
    }
}
