package io.aigw.runtime.pool;

/**
 * The session a request belongs to, as its caller named it: the requests of one session go to
 * the same upstream key while it is healthy, so that the provider's prompt cache for the
 * conversation is hit. Kept in the request's context.
 */
public record Session(String id) {
}
