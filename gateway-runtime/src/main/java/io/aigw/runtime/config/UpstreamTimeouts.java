package io.aigw.runtime.config;

import java.time.Duration;

/**
 * How long the gateway waits for an upstream.
 *
 * @param connect   to open the connection
 * @param firstByte from sending the request to the response headers
 * @param idle      between two reads of a response body, such as two stream events
 * @param total     for the whole call from the request's arrival, fallbacks and a stream's last
 *                  event included: what bounds an upstream that keeps a call alive a byte at a time
 */
public record UpstreamTimeouts(Duration connect, Duration firstByte, Duration idle, Duration total) {
    public static final UpstreamTimeouts DEFAULTS = new UpstreamTimeouts(Duration.ofSeconds(10),
            Duration.ofSeconds(120), Duration.ofSeconds(120), Duration.ofMinutes(10));
}
