package io.aigw.runtime.transport;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.Settings;
import java.time.Duration;

/**
 * How long the gateway waits on a caller's HTTP/1.1 connection ({@code gateway.timeouts.caller-*}),
 * as nginx's {@code client_header_timeout}, {@code client_body_timeout} and {@code keepalive_timeout}:
 * past one, the connection is closed.
 *
 * @param headers   from a request's first byte to the end of its headers; also how long a new
 *                  connection may stay silent before its first request
 * @param body      between two reads of a request's body (not for the whole body)
 * @param keepAlive between the end of an answer and the first byte of the next request
 */
public record CallerTimeouts(Duration headers, Duration body, Duration keepAlive) {
    /** nginx's defaults for the body and keep-alive; half of nginx's for the headers. */
    public static final CallerTimeouts DEFAULTS = new CallerTimeouts(Duration.ofSeconds(30), Duration.ofSeconds(60),
            Duration.ofSeconds(75));
    private static final Duration MIN_TICK = Duration.ofMillis(10);
    private static final Duration MAX_TICK = Duration.ofSeconds(1);

    public CallerTimeouts {
        for (Duration timeout : new Duration[] {headers, body, keepAlive}) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new ConfigurationException("gateway.timeouts.caller-* must be positive, not " + timeout);
            }
        }
    }

    /** Reads {@code gateway.timeouts.caller-headers}, {@code -body} and {@code -keep-alive}. */
    public static CallerTimeouts from(Settings settings) {
        return new CallerTimeouts(
                settings.getDuration("gateway.timeouts.caller-headers", DEFAULTS.headers()),
                settings.getDuration("gateway.timeouts.caller-body", DEFAULTS.body()),
                settings.getDuration("gateway.timeouts.caller-keep-alive", DEFAULTS.keepAlive()));
    }

    /** How often overdue reads are looked for: a tenth of the shortest timeout, within 10 ms and 1 s. */
    Duration tick() {
        Duration shortest = headers;
        if (body.compareTo(shortest) < 0) {
            shortest = body;
        }
        if (keepAlive.compareTo(shortest) < 0) {
            shortest = keepAlive;
        }
        Duration tenth = shortest.dividedBy(10);
        return tenth.compareTo(MIN_TICK) < 0 ? MIN_TICK : tenth.compareTo(MAX_TICK) > 0 ? MAX_TICK : tenth;
    }
}
