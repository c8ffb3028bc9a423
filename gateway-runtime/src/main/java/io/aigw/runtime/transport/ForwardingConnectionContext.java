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
 * and overrides only what it changes (how the caller is read).
 */
abstract class ForwardingConnectionContext implements ConnectionContext {
    private final ConnectionContext connection;

    ForwardingConnectionContext(ConnectionContext connection) {
        this.connection = connection;
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
    public ListenerContext listenerContext() {
        return connection.listenerContext();
    }

    @Override
    public ExecutorService executor() {
        return connection.executor();
    }

    @Override
    public DataWriter dataWriter() {
        return connection.dataWriter();
    }

    @Override
    public Router router() {
        return connection.router();
    }

    @Override
    public Optional<ProxyProtocolData> proxyProtocolData() {
        return connection.proxyProtocolData();
    }

    @Override
    public PeerInfo remotePeer() {
        return connection.remotePeer();
    }

    @Override
    public PeerInfo localPeer() {
        return connection.localPeer();
    }

    @Override
    public boolean isSecure() {
        return connection.isSecure();
    }

    @Override
    public String socketId() {
        return connection.socketId();
    }

    @Override
    public String childSocketId() {
        return connection.childSocketId();
    }

    @Override
    public void log(System.Logger logger, System.Logger.Level level, String format, Object... variables) {
        connection.log(logger, level, format, variables);
    }

    @Override
    public void log(System.Logger logger, System.Logger.Level level, String format, Throwable t,
                    Object... variables) {
        connection.log(logger, level, format, t, variables);
    }
}
