package io.aigw.runtime.transport;

import io.helidon.common.buffers.DataReader;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.webserver.ConnectionContext;

/**
 * A caller's connection as Helidon set it up, read through a {@link ReadAheadSocket} so that its
 * caller can be watched ({@link CallerWatch}).
 */
final class WatchableConnection extends ForwardingConnectionContext {
    private final ReadAheadSocket socket;
    private final DataReader reader;

    WatchableConnection(ConnectionContext connection, ReadAheadSocket socket) {
        super(connection);
        this.socket = socket;
        this.reader = DataReader.create(() -> read(socket));
    }

    @Override
    public DataReader dataReader() {
        return reader;
    }

    @Override
    public HelidonSocket serverSocket() {
        return socket;
    }
}
