package io.aigw.runtime.transport;

import io.helidon.common.buffers.DataReader.InsufficientDataAvailableException;
import io.helidon.common.tls.Tls;
import io.helidon.webclient.api.ClientUri;
import io.helidon.webclient.api.ConnectionKey;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.WebClient;
import io.helidon.webclient.http1.Http1ClientConfig;
import io.helidon.webclient.http1.Http1ClientRequest;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * The gateway's own pool of keep-alive connections to one upstream ({@link ConnectionPool}), each
 * handed to Helidon's client as the explicit connection of one request ({@link PooledConnection}).
 * No thread watches an idle connection: one the upstream closed meanwhile is found out when it is
 * next used, and the request is then sent once more on a new connection.
 */
final class GatewayConnections implements UpstreamConnections {
    private static final Tls NO_TLS = Tls.builder().enabled(false).build();
    /** Helidon's own default cache size. */
    private static final int MAX_IDLE_CONNECTIONS = 256;
    /**
     * Below the 60 s idle timeout of common cloud load balancers and nginx's 75 s, so that the large
     * providers practically never close a connection just as it is reused; long enough that light
     * traffic rarely pays a new TLS handshake. Servers that close sooner (uvicorn, Node and Apache
     * close after 5 s) cost one retry on a new connection, see {@link #submit}.
     */
    static final Duration MAX_IDLE_TIME = Duration.ofSeconds(20);

    private final WebClient webClient;
    private final ConnectionKey connectionKey;
    private final ConnectionPool pool = new ConnectionPool(MAX_IDLE_CONNECTIONS, MAX_IDLE_TIME);

    GatewayConnections(WebClient webClient, Http1ClientConfig config, ClientUri uri) {
        this.webClient = webClient;
        this.connectionKey = connectionKey(uri, config);
    }

    /** Where and how to connect, as Helidon's own connection cache would key it. */
    private static ConnectionKey connectionKey(ClientUri uri, Http1ClientConfig config) {
        return ConnectionKey.create(uri.scheme(), uri.host(), uri.port(),
                "https".equals(uri.scheme()) ? config.tls() : NO_TLS,
                config.dnsResolver(), config.dnsAddressLookup(), config.proxy());
    }

    /**
     * {@inheritDoc}
     *
     * <p>An idle connection the upstream has closed in the meantime fails at once, before any byte
     * of an answer: the request is then sent once more on a new connection, as OkHttp does. Never
     * after an answer began, never for a new connection, never after a timeout (the caller's deadline
     * interrupts this thread, which closes the socket and must end the wait).
     */
    @Override
    public HttpClientResponse submit(Supplier<Http1ClientRequest> request, byte[] body) {
        PooledConnection reused = pool.take();
        if (reused != null) {
            try {
                return request.get().connection(reused).submit(body);
            } catch (UncheckedIOException | InsufficientDataAvailableException e) {
                reused.closeResource();
                if (reused.answered() || Thread.currentThread().isInterrupted()) {
                    throw e;
                }
            } catch (RuntimeException e) {
                reused.closeResource();
                throw e;
            }
        }
        PooledConnection fresh = PooledConnection.open(webClient, connectionKey, pool);
        try {
            return request.get().connection(fresh).submit(body);
        } catch (RuntimeException e) {
            fresh.closeResource();
            throw e;
        }
    }

    @Override
    public void close() {
        pool.close();
    }
}
