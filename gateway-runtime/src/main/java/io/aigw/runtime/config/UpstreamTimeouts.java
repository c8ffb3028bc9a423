package io.aigw.runtime.config;

import java.time.Duration;

/**
 * How long the gateway waits for an upstream.
 *
 * @param connect   to open the connection
 * @param firstByte from sending the request to the response headers
 * @param idle      between two reads of a response body, such as two stream events
 */
public record UpstreamTimeouts(Duration connect, Duration firstByte, Duration idle) {
    public static final UpstreamTimeouts DEFAULTS =
            new UpstreamTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(120), Duration.ofSeconds(120));
}
