package io.aigw.runtime.transport;

import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;

/** A selector as Helidon's, whose connections read the caller through a {@link RestartingDataReader}. */
final class RestartingReaderSelector extends ForwardingSelector {

    RestartingReaderSelector(ServerConnectionSelector selector) {
        super(selector);
    }

    @Override
    public ServerConnection connection(ConnectionContext context) {
        return selector.connection(new RestartingReaderConnection(context));
    }
}
