package io.aigw.runtime.transport;

import io.helidon.common.buffers.DataReader;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A connection whose protocol is picked from its first bytes once it is being handled: HTTP/2 for
 * HTTP/2's preface, HTTP/1.1 for anything else. Picking inside {@link #handle} rather than when
 * Helidon asks for the connection keeps the wait for those bytes where Helidon already tracks the
 * connection: its idle timeout and a shutdown close a caller that connects and sends nothing.
 */
final class FirstBytesConnection implements ServerConnection {
    private static final byte[] HTTP2_PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    private final ConnectionContext context;
    private final ServerConnectionSelector http1;
    private final ServerConnectionSelector http2;
    private final long acceptedNanos = System.nanoTime();
    private volatile ServerConnection chosen;

    FirstBytesConnection(ConnectionContext context, ServerConnectionSelector http1, ServerConnectionSelector http2) {
        this.context = context;
        this.http1 = http1;
        this.http2 = http2;
    }

    @Override
    public void handle(Limit limit) throws InterruptedException {
        ServerConnection connection;
        try {
            // Reads no further than the first byte that differs from the preface (an HTTP/1.1
            // request's first or second) and consumes nothing: the protocol reads from the start.
            connection = context.dataReader().startsWith(HTTP2_PREFACE)
                    ? http2.connection(context) : http1.connection(context);
        } catch (DataReader.InsufficientDataAvailableException e) {
            throw new CloseConnectionException("The caller closed the connection before sending anything", e);
        }
        chosen = connection;
        connection.handle(limit);
    }

    @Override
    public Duration idleTime() {
        ServerConnection connection = chosen;
        return connection != null ? connection.idleTime() : Duration.ofNanos(System.nanoTime() - acceptedNanos);
    }

    /** Before a protocol is picked, the only way to stop the wait for the first bytes is to close the socket. */
    @Override
    public void close(boolean interrupt) {
        ServerConnection connection = chosen;
        if (connection != null) {
            connection.close(interrupt);
        } else {
            context.serverSocket().close();
        }
    }
}
