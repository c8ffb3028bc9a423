package io.aigw.runtime.transport;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.Settings;
import java.time.Duration;

/**
 * How long the gateway waits on a caller's HTTP/1.1 connection ({@code gateway.timeouts.caller-*}),
 * as nginx's {@code client_header_timeout}, {@code client_body_timeout}, {@code keepalive_timeout}
 * and {@code send_timeout}: past one, the connection is closed. And the pace a request body must
 * keep, as Apache's {@code mod_reqtimeout} asks one ({@code body=20,MinRate=500}): a body slower
 * than that is answered 408 and its connection closed ({@link BodyPace}).
 *
 * @param headers     from a request's first byte to the end of its headers; also how long a new
 *                    connection may stay silent before its first request
 * @param body        between two reads of a request's body (not for the whole body)
 * @param keepAlive   between the end of an answer and the first byte of the next request
 * @param bodyMinRate the bytes a second a request body must arrive at, once its grace is spent; 0
 *                    for no minimum
 * @param bodyGrace   how far behind that rate a body may fall: at its start, and after a pause
 * @param send        for one write of an answer to the caller (a stream's events, say) to be taken
 *                    by a caller that reads slowly or not at all, not for the whole answer
 */
public record CallerTimeouts(Duration headers, Duration body, Duration keepAlive, long bodyMinRate,
                             Duration bodyGrace, Duration send) {
    /**
     * nginx's defaults for the body, keep-alive and send; half of nginx's for the headers; Apache's
     * body pace.
     */
    public static final CallerTimeouts DEFAULTS = new CallerTimeouts(Duration.ofSeconds(30), Duration.ofSeconds(60),
            Duration.ofSeconds(75), 500, Duration.ofSeconds(20), Duration.ofSeconds(60));
    private static final Duration MIN_TICK = Duration.ofMillis(10);
    private static final Duration MAX_TICK = Duration.ofSeconds(1);
    /**
     * From this timeout on the tick is the longest. Made once: Duration.multipliedBy multiplies in
     * BigDecimal, about 30 us of a new connection's setup on one CPU while that code is interpreted.
     */
    private static final Duration MAX_TICK_FROM = MAX_TICK.multipliedBy(10);

    public CallerTimeouts {
        for (Duration timeout : new Duration[] {headers, body, keepAlive, send}) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new ConfigurationException("gateway.timeouts.caller-* must be positive, not " + timeout);
            }
        }
        if (bodyMinRate < 0) {
            throw new ConfigurationException("gateway.timeouts.caller-body-min-rate must be 0 (no minimum) or more"
                    + " bytes a second, not " + bodyMinRate);
        }
        if (bodyGrace.isNegative() || bodyGrace.isZero()) {
            throw new ConfigurationException("gateway.timeouts.caller-body-grace must be positive, not " + bodyGrace);
        }
    }

    /**
     * Reads {@code gateway.timeouts.caller-headers}, {@code -body}, {@code -keep-alive},
     * {@code -body-min-rate}, {@code -body-grace} and {@code -send}.
     */
    public static CallerTimeouts from(Settings settings) {
        return new CallerTimeouts(
                settings.getDuration("gateway.timeouts.caller-headers", DEFAULTS.headers()),
                settings.getDuration("gateway.timeouts.caller-body", DEFAULTS.body()),
                settings.getDuration("gateway.timeouts.caller-keep-alive", DEFAULTS.keepAlive()),
                settings.getLong("gateway.timeouts.caller-body-min-rate", DEFAULTS.bodyMinRate()),
                settings.getDuration("gateway.timeouts.caller-body-grace", DEFAULTS.bodyGrace()),
                settings.getDuration("gateway.timeouts.caller-send", DEFAULTS.send()));
    }

    /**
     * How often overdue reads and writes are looked for, in nanoseconds: a tenth of the shortest
     * timeout, within 10 ms and 1 s.
     */
    long tickNanos() {
        Duration shortest = headers;
        if (body.compareTo(shortest) < 0) {
            shortest = body;
        }
        if (keepAlive.compareTo(shortest) < 0) {
            shortest = keepAlive;
        }
        if (send.compareTo(shortest) < 0) {
            shortest = send;
        }
        // Divided as nanoseconds: Duration.dividedBy divides in BigDecimal, and this runs once a
        // connection, before its first read. The comparison keeps toNanos() from overflowing.
        if (shortest.compareTo(MAX_TICK_FROM) >= 0) {
            return MAX_TICK.toNanos();
        }
        return Math.max(MIN_TICK.toNanos(), shortest.toNanos() / 10);
    }
}
