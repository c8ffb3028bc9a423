package io.aigw.runtime.transport;

import io.helidon.common.buffers.BufferData;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.util.HashSet;
import java.util.Set;

/**
 * HTTP/1.1 and HTTP/2 as one selector that claims every connection: HTTP/2 for a connection that
 * opens with HTTP/2's preface, HTTP/1.1 for any other, so that a request line HTTP/1.1 does not
 * recognise still gets HTTP/1.1's 400 or 414 rather than a closed connection (see the package doc).
 * The pick is made once the connection is being handled ({@link FirstBytesConnection}).
 */
final class PrefaceSelector implements ServerConnectionSelector {
    private final ServerConnectionSelector http1;
    private final ServerConnectionSelector http2;
    private final Set<String> applicationProtocols;

    PrefaceSelector(ServerConnectionSelector http1, ServerConnectionSelector http2) {
        this.http1 = http1;
        this.http2 = http2;
        Set<String> protocols = new HashSet<>(http1.supportedApplicationProtocols());
        protocols.addAll(http2.supportedApplicationProtocols());
        this.applicationProtocols = Set.copyOf(protocols);
    }

    /** Claims the connection before reading any of it: the wait for its first bytes happens in handling. */
    @Override
    public int bytesToIdentifyConnection() {
        return 0;
    }

    @Override
    public Support supports(BufferData request) {
        return Support.SUPPORTED;
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return applicationProtocols;
    }

    @Override
    public ServerConnection connection(ConnectionContext context) {
        return new FirstBytesConnection(context, http1, http2);
    }
}
