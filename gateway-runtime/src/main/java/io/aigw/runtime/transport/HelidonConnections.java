package io.aigw.runtime.transport;

import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http1.Http1ClientRequest;
import java.util.function.Supplier;

/**
 * Helidon's own path: each request takes its connection from the connection cache of the client
 * that made it, and Helidon's cache watches each connection it gets back (see the package doc).
 */
final class HelidonConnections implements UpstreamConnections {
    private final Http1Client client;

    HelidonConnections(Http1Client client) {
        this.client = client;
    }

    @Override
    public HttpClientResponse submit(Supplier<Http1ClientRequest> request, byte[] body) {
        return request.get().submit(body);
    }

    @Override
    public void close() {
        client.closeResource();
    }
}
