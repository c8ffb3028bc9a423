package io.aigw.runtime.upstream;

import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;

/**
 * The {@code Server-Timing} header of every relayed answer: the gateway's own time so far and the
 * time spent waiting on upstreams, failed attempts included, in milliseconds
 * ({@code gateway;dur=0.412, upstream;dur=230.118}).
 */
final class ServerTiming {
    static final HeaderName HEADER = HeaderNames.create("Server-Timing");

    private ServerTiming() {
    }

    /**
     * The header's value as of now: the gateway's part is the time since the request came, less the upstreams'.
     *
     * @param startedNanos  {@link System#nanoTime()} when the request came
     * @param upstreamNanos the time spent waiting on upstreams so far, failed attempts included
     */
    static String value(long startedNanos, long upstreamNanos) {
        long upstreamMicros = upstreamNanos / 1000;
        long gatewayMicros = Math.max(0, (System.nanoTime() - startedNanos) / 1000 - upstreamMicros);
        // One builder for the whole value: it is made on every answer.
        StringBuilder value = new StringBuilder(48).append("gateway;dur=");
        Millis.append(value, gatewayMicros).append(", upstream;dur=");
        return Millis.append(value, upstreamMicros).toString();
    }
}
