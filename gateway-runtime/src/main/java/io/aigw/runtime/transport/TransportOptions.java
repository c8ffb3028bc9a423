package io.aigw.runtime.transport;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.Settings;
import java.util.Locale;

/**
 * Which of the transport's workarounds are on ({@code gateway.transport.*}); each can be turned off
 * to fall back to Helidon's own path, so that an operator can rule one out in production.
 *
 * @param restartingReader   callers' connections are read through {@link RestartingDataReader}
 * @param protocolSelection  who picks HTTP/1.1 or HTTP/2 for a caller's connection (with HTTP/2 on)
 * @param upstreamPool       whose pool holds the keep-alive connections to upstreams
 * @param callerWatch        callers' connections are read ahead while their requests wait on an
 *                           upstream, to notice a caller leaving ({@link CallerWatch})
 */
public record TransportOptions(boolean restartingReader, Choice protocolSelection, Choice upstreamPool,
                               boolean callerWatch) {
    /** Every workaround on. */
    public static final TransportOptions DEFAULTS = new TransportOptions(true, Choice.GATEWAY, Choice.GATEWAY, true);

    /** The gateway's own way, or Helidon's. */
    public enum Choice {
        GATEWAY, HELIDON;

        static Choice parse(String key, String value) {
            return switch (value.strip().toLowerCase(Locale.ROOT)) {
                case "gateway" -> GATEWAY;
                case "helidon" -> HELIDON;
                default -> throw new ConfigurationException(key + " must be gateway or helidon, not '" + value + "'");
            };
        }
    }

    /** Reads {@code gateway.transport.*}, each key defaulting to the gateway's way. */
    public static TransportOptions from(Settings settings) {
        return new TransportOptions(
                settings.getBoolean("gateway.transport.restarting-reader", DEFAULTS.restartingReader()),
                choice(settings, "gateway.transport.protocol-selection"),
                choice(settings, "gateway.transport.upstream-pool"),
                settings.getBoolean("gateway.transport.caller-watch", DEFAULTS.callerWatch()));
    }

    private static Choice choice(Settings settings, String key) {
        return settings.get(key).map(value -> Choice.parse(key, value)).orElse(Choice.GATEWAY);
    }
}
