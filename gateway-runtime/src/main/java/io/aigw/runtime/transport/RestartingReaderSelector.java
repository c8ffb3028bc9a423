package io.aigw.runtime.transport;

import io.helidon.common.buffers.BufferData;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.util.Set;

/** A selector as Helidon's, whose connections read the caller through a {@link RestartingDataReader}. */
final class RestartingReaderSelector implements ServerConnectionSelector {
    private final ServerConnectionSelector selector;

    RestartingReaderSelector(ServerConnectionSelector selector) {
        this.selector = selector;
    }

    @Override
    public int bytesToIdentifyConnection() {
        return selector.bytesToIdentifyConnection();
    }

    @Override
    public Support supports(BufferData data) {
        return selector.supports(data);
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return selector.supportedApplicationProtocols();
    }

    @Override
    public ServerConnection connection(ConnectionContext context) {
        return selector.connection(new RestartingReaderConnection(context));
    }
}
