package io.aigw.runtime.pool;

/**
 * The session a request belongs to, as its caller named it: the requests of one session go to
 * the same upstream key while it is healthy, so that the provider's prompt cache for the
 * conversation is hit. Kept in the request's context.
 *
 * @param id the name the caller gave, cut to {@link #MAX_LENGTH} characters
 */
public record Session(String id) {
    /** Only hashed, never stored or shown: more than this says nothing more of the session. */
    public static final int MAX_LENGTH = 256;

    public Session {
        if (id.length() > MAX_LENGTH) {
            id = id.substring(0, MAX_LENGTH);
        }
    }
}
