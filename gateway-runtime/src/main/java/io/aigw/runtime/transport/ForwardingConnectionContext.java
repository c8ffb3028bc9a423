package io.aigw.runtime.transport;

import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.common.socket.PeerInfo;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.ListenerContext;
import io.helidon.webserver.ProxyProtocolData;
import io.helidon.webserver.Router;
import io.helidon.webserver.ServerConnectionException;
import java.io.UncheckedIOException;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/**
 * A caller's connection as Helidon set it up, every method passed on to it; a workaround extends it
 * and overrides only what it changes: how the caller is read and written. What no workaround
 * changes is final here and asked of Helidon's own context directly, not through every workaround
 * stacked on it: Helidon asks for it several times a request, and each layer was one more
 * interface call.
 */
abstract class ForwardingConnectionContext implements ConnectionContext {
    private final ConnectionContext connection;
    /** Helidon's context under all the workarounds'. */
    private final ConnectionContext origin;

    ForwardingConnectionContext(ConnectionContext connection) {
        this.connection = connection;
        this.origin = connection instanceof ForwardingConnectionContext forwarding ? forwarding.origin : connection;
    }

    /** The next bytes from the caller, failing as Helidon's own reader of a caller's socket does. */
    static byte[] read(HelidonSocket socket) {
        try {
            return socket.get();
        } catch (UncheckedIOException e) {
            // Helidon's reader turns a failed read into this, which closes the connection quietly.
            throw new ServerConnectionException("Failed to get data from socket", e);
        }
    }

    @Override
    public DataReader dataReader() {
        return connection.dataReader();
    }

    @Override
    public HelidonSocket serverSocket() {
        return connection.serverSocket();
    }

    @Override
    public final ListenerContext listenerContext() {
        return origin.listenerContext();
    }

    @Override
    public final ExecutorService executor() {
        return origin.executor();
    }

    @Override
    public DataWriter dataWriter() {
        return connection.dataWriter();
    }

    @Override
    public final Router router() {
        return origin.router();
    }

    @Override
    public final Optional<ProxyProtocolData> proxyProtocolData() {
        return origin.proxyProtocolData();
    }

    @Override
    public final PeerInfo remotePeer() {
        return origin.remotePeer();
    }

    @Override
    public final PeerInfo localPeer() {
        return origin.localPeer();
    }

    @Override
    public final boolean isSecure() {
        return origin.isSecure();
    }

    @Override
    public final String socketId() {
        return origin.socketId();
    }

    @Override
    public final String childSocketId() {
        return origin.childSocketId();
    }

    @Override
    public final void log(System.Logger logger, System.Logger.Level level, String format, Object... variables) {
        origin.log(logger, level, format, variables);
    }

    @Override
    public final void log(System.Logger logger, System.Logger.Level level, String format, Throwable t,
                          Object... variables) {
        origin.log(logger, level, format, t, variables);
    }
}
