package io.aigw.runtime.transport;

import io.helidon.common.buffers.BufferData;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.util.Set;

/**
 * A selector as Helidon's, every method passed on to it but {@link #connection}, where a workaround
 * wraps the caller's connection before Helidon's protocol handles it.
 */
abstract class ForwardingSelector implements ServerConnectionSelector {
    final ServerConnectionSelector selector;

    ForwardingSelector(ServerConnectionSelector selector) {
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
}
