package io.aigw.runtime.transport;

import io.helidon.common.buffers.DataReader;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.webserver.ConnectionContext;

/** A caller's connection as Helidon set it up, read through a {@link RestartingDataReader}. */
final class RestartingReaderConnection extends ForwardingConnectionContext {
    private final DataReader reader;

    RestartingReaderConnection(ConnectionContext connection) {
        super(connection);
        DataReader helidons = connection.dataReader();
        HelidonSocket socket = connection.serverSocket();
        this.reader = new RestartingDataReader(() -> {
            // What Helidon's reader already took from the socket (the bytes looked at to pick the
            // protocol) comes first; it reads nothing more after that.
            if (helidons.available() > 0) {
                return helidons.readBytes(helidons.available());
            }
            return read(socket);
        });
    }

    @Override
    public DataReader dataReader() {
        return reader;
    }
}
