package io.aigw.runtime.config;

import com.sun.management.HotSpotDiagnosticMXBean;
import io.helidon.config.Config;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * The gateway's own settings, {@code gateway.*} and Helidon's {@code server}, read once at start.
 * Each key, default and environment variable is the one docs/configuration.md documents;
 * a provider's settings are read with its plugin ({@link ProviderConfig}).
 *
 * @param name          {@code gateway.name}: {@code owned_by} of {@code gateway/auto} in the model list
 * @param accessLog     {@code gateway.access-log}: {@code stdout}, {@code off} or a file to append to
 * @param gracePeriod   {@code gateway.shutdown.grace-period}: on SIGTERM, time for requests in flight to finish
 * @param usageQueue    {@code gateway.usage.queue-size}: usage records waiting to be written, the rest dropped
 * @param costHeader    {@code gateway.cost-header}: state a plain answer's cost in {@code X-Gateway-Cost}
 */
public record GatewayConfig(Listener listener, Limits limits, Upstream upstream, DatabaseConfig database,
                            Keys keys, PluginsConfig plugins, RateLimitsConfig rateLimits, int usageQueue,
                            String accessLog, Duration gracePeriod, String name, boolean costHeader) {

    /**
     * Reads every gateway setting.
     *
     * @throws ConfigurationException naming the key whose value cannot be used, or every key the
     *                                gateway does not know in the sections it owns
     */
    public static GatewayConfig read(Settings settings) {
        ConfigurationMembers.requireKnown(settings);
        return new GatewayConfig(Listener.read(settings), Limits.read(settings), Upstream.read(settings),
                DatabaseConfig.read(settings), Keys.read(settings), PluginsConfig.read(settings),
                RateLimitsConfig.read(settings), settings.getInt("gateway.usage.queue-size", 10_000),
                accessLog(settings.get("gateway.access-log", "stdout")),
                settings.getDuration("gateway.shutdown.grace-period", Duration.ofSeconds(30)),
                settings.get("gateway.name", "aigw"),
                settings.getBoolean("gateway.cost-header", false));
    }

    /**
     * YAML 1.1, which the file is read as, takes an unquoted {@code off} or {@code no} for false and
     * {@code on} or {@code yes} for true, so {@code access-log: off} arrives as {@code false}: read
     * as a file name, it sent every line to a file called "false" in the working folder.
     */
    private static String accessLog(String value) {
        return switch (value) {
            case "false" -> "off";
            case "true" -> "stdout";
            default -> value;
        };
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
     * @param bodyMemory            {@code gateway.body-memory}: the heap request bodies in flight may
     *                              hold together
     * @param inFlightReserve       {@code gateway.fairness.in-flight-reserve}: the last free request
     *                              slots, kept for keys holding fewer requests than this
     * @param keyBodyMemory         {@code gateway.fairness.key-body-memory}: the most of the body
     *                              memory one key's bodies may hold together
     */
    public record Limits(long maxBodyBytes, int maxConcurrentRequests, long bodyMemory, int inFlightReserve,
                         long keyBodyMemory) {
        public static final long DEFAULT_MAX_BODY_BYTES = 10L * 1024 * 1024;
        /** What the gateway holds per byte of a body in flight: its bytes, and the copies sent upstream. */
        public static final int BODY_COST = 3;
        /**
         * The heap a stream in flight holds: two sockets' read buffers (Helidon's, 8 KB each), the
         * answer's write buffer (2 KB), the relay's, and the stacks of its two virtual threads (the
         * request's, parked on the upstream, and the watch on the caller), as
         * {@code benchmarks/load/stream-capacity.sh} measures it (50 and 45 KB), with some room: 56 KB
         * with the JVM's 12-byte object headers, 48 KB with compact ones (JDK 25+, which bin/gateway
         * asks for).
         */
        static final long STREAM_HEAP = 56 * 1024;
        static final long STREAM_HEAP_COMPACT_HEADERS = 48 * 1024;
        /** The heap the gateway needs besides streams and bodies: its young generation, its own state. */
        static final long BASE_HEAP = 48L * 1024 * 1024;

        static Limits read(Settings settings) {
            long maxBody = settings.getLong("gateway.max-body-size", DEFAULT_MAX_BODY_BYTES);
            long bodyMemory = settings.getLong("gateway.body-memory", defaultBodyMemory(maxBody));
            if (maxBody < 0 || maxBody > Integer.MAX_VALUE - 8) {
                throw new ConfigurationException("gateway.max-body-size must be between 0 and " + (Integer.MAX_VALUE - 8)
                        + " bytes, not " + maxBody);
            }
            if (bodyMemory < maxBody * BODY_COST) {
                throw new ConfigurationException("gateway.body-memory (" + bodyMemory + " bytes) must hold at least "
                        + BODY_COST + " times gateway.max-body-size (" + maxBody + " bytes): the largest body takes"
                        + " that while it is read and forwarded");
            }
            int maxConcurrent = settings.getInt("gateway.max-concurrent-requests",
                    defaultMaxConcurrentRequests(bodyMemory));
            if (maxConcurrent < 1) {
                throw new ConfigurationException("gateway.max-concurrent-requests must be 1 or more, not "
                        + maxConcurrent);
            }
            int reserve = settings.getInt("gateway.fairness.in-flight-reserve", maxConcurrent / 16);
            if (reserve < 0 || reserve >= maxConcurrent) {
                throw new ConfigurationException("gateway.fairness.in-flight-reserve (" + reserve + ") must be 0 or"
                        + " more and less than gateway.max-concurrent-requests (" + maxConcurrent + ")");
            }
            long keyBodyMemory = settings.getLong("gateway.fairness.key-body-memory",
                    Math.max(maxBody * BODY_COST, bodyMemory / 2));
            if (keyBodyMemory < maxBody * BODY_COST || keyBodyMemory > bodyMemory) {
                throw new ConfigurationException("gateway.fairness.key-body-memory (" + keyBodyMemory + " bytes) must"
                        + " hold at least " + BODY_COST + " times gateway.max-body-size (" + maxBody + " bytes), the"
                        + " largest body, and at most gateway.body-memory (" + bodyMemory + " bytes)");
            }
            return new Limits(maxBody, maxConcurrent, bodyMemory, reserve, keyBodyMemory);
        }

        /**
         * A tenth of the heap, and at least room for one largest body: large bodies arriving
         * together then wait for each other rather than run the heap out.
         */
        private static long defaultBodyMemory(long maxBody) {
            return Math.max(maxBody * BODY_COST, Runtime.getRuntime().maxMemory() / 10);
        }

        /**
         * The heap left when the bodies' share and the gateway's own are set aside, a stream's
         * worth each ({@link #STREAM_HEAP}): the largest load then gets a 503, not an exhausted heap.
         */
        private static int defaultMaxConcurrentRequests(long bodyMemory) {
            long left = Runtime.getRuntime().maxMemory() - bodyMemory - BASE_HEAP;
            return (int) Math.max(64, Math.min(Integer.MAX_VALUE, left / streamHeap()));
        }

        /** The heap a stream holds in this JVM: less when its objects have compact headers. */
        static long streamHeap() {
            HotSpotDiagnosticMXBean vm = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
            try {
                return vm != null && Boolean.parseBoolean(vm.getVMOption("UseCompactObjectHeaders").getValue())
                        ? STREAM_HEAP_COMPACT_HEADERS : STREAM_HEAP;
            } catch (IllegalArgumentException e) {
                // A JVM before 24, which has no such option.
                return STREAM_HEAP;
            }
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
     * @param pools            how the providers' pools treat a key that fails
     * @param catalogueRefresh {@code gateway.catalogue.refresh}: how often each provider's model list
     *                         is read from its upstream; zero (the default): never, the plugins'
     *                         catalogues as they are
     * @param tls              {@code gateway.upstream-tls}: Helidon TLS settings for HTTPS upstreams, when set
     */
    public record Upstream(UpstreamTimeouts timeouts, PoolsConfig pools, Duration catalogueRefresh,
                           Optional<Config> tls) {

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
            Duration refresh = settings.getDuration("gateway.catalogue.refresh", Duration.ZERO);
            if (refresh.isNegative() || !refresh.isZero() && refresh.toMillis() < 100) {
                throw new ConfigurationException("gateway.catalogue.refresh must be 0 (off) or 100ms or longer, not "
                        + refresh);
            }
            return new Upstream(timeouts, PoolsConfig.read(settings), refresh,
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
