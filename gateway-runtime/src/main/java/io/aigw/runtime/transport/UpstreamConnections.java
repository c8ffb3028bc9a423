package io.aigw.runtime.transport;

import io.aigw.runtime.transport.TransportOptions.Choice;
import io.helidon.webclient.api.ClientUri;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.WebClient;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientRequest;
import io.helidon.webclient.spi.DnsResolver;
import java.time.Duration;
import java.util.function.Supplier;

/**
 * Where the keep-alive connections to one upstream come from: the gateway's own pool
 * ({@link GatewayConnections}) or Helidon's connection cache ({@link HelidonConnections}), as
 * {@code gateway.transport.upstream-pool} says. Helidon's client writes every request and parses
 * every answer either way.
 */
public sealed interface UpstreamConnections extends AutoCloseable permits GatewayConnections, HelidonConnections {

    /**
     * Connections to {@code uri} for {@code client}, which {@code webClient} made. Helidon's cache is
     * the one {@code client} was built with, so it must not be shared with other clients
     * ({@code shareConnectionCache(false)}) for {@link #close} to close its connections.
     */
    static UpstreamConnections create(Choice pool, WebClient webClient, Http1Client client, ClientUri uri) {
        return switch (pool) {
            case GATEWAY -> new GatewayConnections(webClient, client.prototype(), uri);
            case HELIDON -> new HelidonConnections(client);
        };
    }

    /**
     * How an upstream's host is resolved: as written in its base URL, so that TLS verifies an IP
     * address against the certificate's IP addresses ({@link HostAsWrittenResolver}).
     */
    static DnsResolver hostAsWritten() {
        return new HostAsWrittenResolver();
    }

    /**
     * The socket read timeout for connections from {@code pool}, given the longest the caller's
     * deadlines let a read wait. None for the gateway's pool: the deadlines end every wait, and with
     * a timeout each read that has to wait would be a timed park of its virtual thread, which arms a
     * timer in the JDK's scheduler. Helidon's cache takes the timeout as how long to watch an idle
     * connection, and with none it watches for one round and then fails the connection's next read
     * (package doc); twice the longest deadline keeps the deadlines ending every wait first.
     */
    public static Duration socketReadTimeout(Choice pool, Duration longestDeadline) {
        return switch (pool) {
            case GATEWAY -> Duration.ZERO;
            case HELIDON -> longestDeadline.multipliedBy(2);
        };
    }

    /**
     * Sends a request with {@code body} and returns once the response headers are in. {@code request}
     * makes a new request, not yet sent, each time it is called: a request that failed on a connection
     * the upstream had closed may be made and sent again on another.
     */
    HttpClientResponse submit(Supplier<Http1ClientRequest> request, byte[] body);

    /** Closes the idle connections; those in use close when their answers end. */
    @Override
    void close();
}
