package io.aigw.runtime.store;

import java.time.Duration;

/**
 * How long the gateway waits for its database, and how often it looks at it.
 *
 * @param timeout       the longest a request waits for a connection (and, on PostgreSQL, to
 *                      connect) before it is answered 503: {@code gateway.database.timeout}
 * @param checkInterval how often the database is checked off the request path, which readiness
 *                      reports and a caller's {@code Retry-After} names: {@code gateway.database.check-interval}
 */
public record StoreTimeouts(Duration timeout, Duration checkInterval) {
    public static final StoreTimeouts DEFAULTS = new StoreTimeouts(Duration.ofSeconds(2), Duration.ofSeconds(2));
}
