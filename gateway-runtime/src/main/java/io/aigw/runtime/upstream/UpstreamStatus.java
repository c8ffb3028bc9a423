package io.aigw.runtime.upstream;

/**
 * What an upstream's status code means for the caller and for {@code gateway/auto}.
 */
enum UpstreamStatus {
    /** 2xx: the answer goes to the caller. */
    SUCCESS,
    /**
     * 401 or 403: the upstream refused the gateway's own key, not the caller's request; the key is
     * skipped for a cool-down and another provider may answer.
     */
    KEY_REJECTED,
    /** 408, 409, 429 and 5xx: this upstream cannot answer now; another provider may. */
    RETRYABLE,
    /**
     * Every other status (400, 404, 413, 422, a 3xx since redirects are not followed): the answer
     * says something of the request itself, which any other provider would say too, so it goes back.
     */
    FINAL;

    static UpstreamStatus of(int code) {
        if (code >= 200 && code < 300) {
            return SUCCESS;
        }
        if (code == 401 || code == 403) {
            return KEY_REJECTED;
        }
        return code == 408 || code == 409 || code == 429 || code >= 500 ? RETRYABLE : FINAL;
    }

    /** Whether {@code gateway/auto} moves on to the next provider after an answer with this status. */
    boolean movesOn() {
        return this == KEY_REJECTED || this == RETRYABLE;
    }
}
