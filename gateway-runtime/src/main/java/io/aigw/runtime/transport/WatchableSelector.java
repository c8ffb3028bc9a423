package io.aigw.runtime.transport;

import io.helidon.common.concurrency.limits.Limit;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.time.Duration;
import java.util.concurrent.Semaphore;

/**
 * A selector as Helidon's, whose connections read their caller through a {@link ReadAheadSocket}
 * and handle their requests with it as the thread's caller socket, for {@link CallerWatch}.
 */
final class WatchableSelector extends ForwardingSelector {

    WatchableSelector(ServerConnectionSelector selector) {
        super(selector);
    }

    @Override
    public ServerConnection connection(ConnectionContext context) {
        ReadAheadSocket socket = new ReadAheadSocket(context.serverSocket(), context.dataReader());
        return new WatchedHandling(selector.connection(new WatchableConnection(context, socket)), socket);
    }

    /** A connection whose thread knows its caller socket while it handles requests. */
    static final class WatchedHandling implements ServerConnection {
        private final ServerConnection connection;
        private final ReadAheadSocket socket;

        WatchedHandling(ServerConnection connection, ReadAheadSocket socket) {
            this.connection = connection;
            this.socket = socket;
        }

        @Override
        public void handle(Limit limit) throws InterruptedException {
            CallerWatch.handling(socket, () -> connection.handle(limit));
        }

        @SuppressWarnings("removal") // Helidon calls handle(Limit); passed on should anything call this.
        @Override
        public void handle(Semaphore requestSemaphore) throws InterruptedException {
            CallerWatch.handling(socket, () -> connection.handle(requestSemaphore));
        }

        @Override
        public Duration idleTime() {
            return connection.idleTime();
        }

        @Override
        public void close(boolean interrupt) {
            connection.close(interrupt);
        }
    }
}
