package io.aigw.runtime;

import io.aigw.runtime.config.GatewayConfig;
import io.aigw.runtime.error.TransportErrors;
import io.aigw.runtime.observe.GatewayMetrics;
import io.aigw.runtime.observe.PluginWatcherCheck;
import io.aigw.runtime.observe.ReadinessCheck;
import io.aigw.runtime.plugin.WatcherStatus;
import io.aigw.runtime.transport.CallerProtocols;
import io.aigw.runtime.transport.CallerReserve;
import io.aigw.runtime.transport.CallerTimeouts;
import io.aigw.runtime.transport.TransportOptions;
import io.helidon.common.socket.SocketOptions;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.observe.ObserveFeature;
import io.helidon.webserver.observe.ObserveFeatureConfig;
import io.helidon.webserver.observe.health.HealthObserver;
import io.helidon.webserver.observe.metrics.MetricsObserver;
import java.time.Duration;
import java.util.List;

/**
 * The HTTP server callers reach, as the gateway sets it up around its routing: the socket and
 * buffer choices of the front door, its connection limit and protocols, and the health and metrics
 * endpoints, on the same port or a socket of their own.
 */
final class CallerListener {
    /** The name of the separate socket for health and metrics, when {@code gateway.observe.port} asks for one. */
    static final String OBSERVE_SOCKET = "observe";
    // Every answer and every streamed event goes out as soon as it is written: with Nagle's algorithm
    // a small write waits for the acknowledgement of the previous one, which a client's delayed
    // acknowledgement holds back up to 40 ms (Helidon's default leaves the algorithm on).
    private static final SocketOptions NO_DELAY = SocketOptions.builder().tcpNoDelay(true).build();
    /**
     * How long after the grace period of a stop the server closes the connections still open. At
     * the grace period's end the gateway ends its calls' waits on the upstreams itself, and each
     * call answers 503 {@code shutting_down}; had the server closed the connections at that same
     * moment, a caller could read a closed connection instead of the answer.
     */
    private static final Duration CLOSE_AFTER_GRACE = Duration.ofSeconds(1);

    private CallerListener() {
    }

    /** The server, not yet started, that serves {@code routing} and the observe endpoints. */
    static WebServerConfig.Builder server(GatewayConfig config, TransportOptions transport,
                                          CallerTimeouts callerTimeouts, HttpRouting.Builder routing,
                                          ReadinessCheck readiness, WatcherStatus watcherStatus) {
        GatewayConfig.Listener listener = config.listener();
        CallerReserve reserve = new CallerReserve(listener.server().get("max-tcp-connections").asInt()
                .orElse(config.limits().maxCallerConnections()));
        WebServerConfig.Builder server = WebServer.builder()
                .connectionOptions(NO_DELAY)
                // A caller's connection over a socket with one 8 KB read buffer, not NIO's pair of
                // 8 KB buffers: a connection holds them as long as it is open, a stream's included,
                // and the write buffer only copies what the response's own buffer already holds.
                .useNio(false)
                // A streamed answer's buffer, held as long as the stream: the relay flushes after
                // each read's events, a kilobyte or so, and larger writes go past the buffer.
                .writeBufferSize(2048)
                .directHandlers(TransportErrors.handlers())
                // Helidon's parser says what it refused; TransportErrors passes on only what it marks safe.
                .errorHandling(handling -> handling.includeEntity(true))
                .config(listener.server())
                // Callers' connections and, beyond them, a few for health and metrics alone.
                .maxTcpConnections(reserve.listenerLimit())
                // The protocols are chosen here, not discovered: see CallerProtocols.
                .protocolsDiscoverServices(false)
                .connectionSelectors(CallerProtocols.selectors(listener.protocols(), listener.http2(), transport,
                        callerTimeouts, reserve))
                .host(listener.host())
                .port(listener.port())
                // GracefulStop stops the server, then the rest (Gateway.close): the order matters.
                .shutdownHook(false)
                .shutdownGracePeriod(config.gracePeriod().plus(CLOSE_AFTER_GRACE))
                .routing(routing);
        ObserveFeatureConfig.Builder observe = ObserveFeature.builder()
                .addObserver(HealthObserver.builder().details(true)
                        .addCheck(readiness)
                        .addCheck(new PluginWatcherCheck(watcherStatus)).build())
                .addObserver(MetricsObserver.builder().metricsConfig(GatewayMetrics.REGISTRY_CONFIG).build());
        listener.observePort().ifPresent(port -> {
            server.putSocket(OBSERVE_SOCKET, socket -> socket.host(listener.host())
                    .port(port)
                    .useNio(false)
                    .connectionOptions(NO_DELAY));
            observe.sockets(List.of(OBSERVE_SOCKET));
        });
        return server.addFeature(observe.build());
    }
}
