package io.aigw.runtime.config;

import io.helidon.config.Config;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The gateway's own settings, {@code gateway.*} and Helidon's {@code server}, read once at start.
 * Each key, default and environment variable is the one README's configuration table documents;
 * a provider's settings are read with its plugin ({@link ProviderConfig}).
 *
 * @param name          {@code gateway.name}: {@code owned_by} of {@code gateway/auto} in the model list
 * @param accessLog     {@code gateway.access-log}: {@code stdout}, {@code off} or a file to append to
 * @param gracePeriod   {@code gateway.shutdown.grace-period}: on SIGTERM, time for requests in flight to finish
 * @param usageQueue    {@code gateway.usage.queue-size}: usage records waiting to be written, the rest dropped
 * @param costHeader    {@code gateway.cost-header}: state a plain answer's cost in {@code X-Gateway-Cost}
 */
public record GatewayConfig(Listener listener, Limits limits, Upstream upstream, DatabaseConfig database,
                            Keys keys, PluginsConfig plugins, int usageQueue, String accessLog, Duration gracePeriod,
                            String name, boolean costHeader) {

    /**
     * Reads every gateway setting.
     *
     * @throws ConfigurationException naming the key whose value cannot be used
     */
    public static GatewayConfig read(Settings settings) {
        return new GatewayConfig(Listener.read(settings), Limits.read(settings), Upstream.read(settings),
                DatabaseConfig.read(settings), Keys.read(settings), PluginsConfig.read(settings),
                settings.getInt("gateway.usage.queue-size", 10_000),
                settings.get("gateway.access-log", "stdout"),
                settings.getDuration("gateway.shutdown.grace-period", Duration.ofSeconds(30)),
                settings.get("gateway.name", "aigw"),
                settings.getBoolean("gateway.cost-header", false));
    }

    /**
     * Where and how callers connect.
     *
     * @param observePort {@code gateway.observe.port}: a port of its own for {@code /observe/*}, when set
     * @param http2       {@code gateway.http2}: also take HTTP/2 over plain TCP
     * @param protocols   {@code gateway.protocols}: HTTP/1.1 and HTTP/2 settings, with Helidon's names
     * @param server      {@code server}: Helidon's own web server settings, applied after the gateway's
     */
    public record Listener(String host, int port, OptionalInt observePort, boolean http2, Config protocols,
                           Config server) {

        static Listener read(Settings settings) {
            if (settings.node("server.protocols").exists()) {
                // Helidon would add its own selectors for them, behind the gateway's (see CallerProtocols).
                throw new ConfigurationException("server.protocols is not used by the gateway: set HTTP/1.1 and"
                        + " HTTP/2 options under gateway.protocols.http_1_1 and gateway.protocols.http_2 instead.");
            }
            return new Listener(settings.get("gateway.host", "0.0.0.0"), settings.getInt("gateway.port", 8080),
                    settings.getInt("gateway.observe.port"), settings.getBoolean("gateway.http2", false), settings.node("gateway.protocols"),
                    settings.node("server"));
        }
    }

    /**
     * What the gateway takes on at once, each bounded so that the heap holds it.
     *
     * @param maxBodyBytes          {@code gateway.max-body-size}: the largest request body
     * @param maxConcurrentRequests {@code gateway.max-concurrent-requests}: chat requests relayed at
     *                              once, a stream counting until it ends
     */
    public record Limits(long maxBodyBytes, int maxConcurrentRequests) {
        public static final long DEFAULT_MAX_BODY_BYTES = 10L * 1024 * 1024;

        static Limits read(Settings settings) {
            return new Limits(settings.getLong("gateway.max-body-size", DEFAULT_MAX_BODY_BYTES),
                    settings.getInt("gateway.max-concurrent-requests", defaultMaxConcurrentRequests()));
        }

        /**
         * A stream in flight holds about 75 KB of heap (socket buffers on both sides, the chunks
         * read, the relay's buffers, its threads' stacks; {@code benchmarks/load/streams.sh}
         * measures it): 128 KB of heap each leaves room for everything else and for the collector,
         * so the largest load gets a 503 instead of running the heap out.
         */
        private static int defaultMaxConcurrentRequests() {
            return (int) Math.max(64, Runtime.getRuntime().maxMemory() / (128 * 1024));
        }

        /**
         * Callers' connections taken at once, unless {@code server.max-tcp-connections} says otherwise.
         * An open connection costs heap before its request is admitted (its socket buffers, its
         * thread's stack), so half as many again as the request limit are taken (64 at least):
         * enough for the excess to get its 503. Past that, callers wait in the listen backlog,
         * where they cost the kernel, not the heap.
         */
        public int maxCallerConnections() {
            return (int) Math.min(Integer.MAX_VALUE, maxConcurrentRequests + Math.max(64L, maxConcurrentRequests / 2));
        }
    }

    /**
     * How the gateway calls upstreams.
     *
     * @param keyCooldown {@code gateway.auto.key-cooldown}: how long {@code gateway/auto} skips a
     *                    provider whose key an upstream rejected
     * @param tls         {@code gateway.upstream-tls}: Helidon TLS settings for HTTPS upstreams, when set
     */
    public record Upstream(UpstreamTimeouts timeouts, Duration keyCooldown, Optional<Config> tls) {

        static Upstream read(Settings settings) {
            UpstreamTimeouts timeouts = new UpstreamTimeouts(
                    settings.getDuration("gateway.timeouts.connect", UpstreamTimeouts.DEFAULTS.connect()),
                    settings.getDuration("gateway.timeouts.first-byte", UpstreamTimeouts.DEFAULTS.firstByte()),
                    settings.getDuration("gateway.timeouts.idle", UpstreamTimeouts.DEFAULTS.idle()),
                    settings.getDuration("gateway.timeouts.total", UpstreamTimeouts.DEFAULTS.total()));
            if (timeouts.total().isNegative() || timeouts.total().isZero()) {
                throw new ConfigurationException("gateway.timeouts.total must be longer than zero, not "
                        + timeouts.total());
            }
            Config tls = settings.node("gateway.upstream-tls");
            return new Upstream(timeouts, settings.getDuration("gateway.auto.key-cooldown", Duration.ofSeconds(60)),
                    tls.exists() ? Optional.of(tls) : Optional.empty());
        }
    }

    /**
     * Workspace keys.
     *
     * @param masterKey {@code gateway.master-key}: an admin key that lives in configuration
     * @param cacheTtl  {@code gateway.keys.cache-ttl}: how long a key check is reused, and so the
     *                  longest a key revoked on another replica keeps working here
     * @param outageTtl {@code gateway.keys.outage-ttl}: how long a key seen recently keeps working
     *                  while the database cannot be reached
     */
    public record Keys(Optional<Secret> masterKey, Duration cacheTtl, Duration outageTtl) {

        static Keys read(Settings settings) {
            return new Keys(settings.get("gateway.master-key").map(Secret::new),
                    settings.getDuration("gateway.keys.cache-ttl", Duration.ofSeconds(5)),
                    settings.getDuration("gateway.keys.outage-ttl", Duration.ofHours(1)));
        }
    }
}
