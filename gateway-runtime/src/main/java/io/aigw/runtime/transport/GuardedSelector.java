package io.aigw.runtime.transport;

import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.concurrency.limits.Limit;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.time.Duration;
import java.util.concurrent.Semaphore;

/**
 * A selector as Helidon's, whose connections read and write their caller through a
 * {@link CallerSocket}: with deadlines, ending after an answer that closes the connection,
 * lingering after an error.
 */
final class GuardedSelector extends ForwardingSelector {
    private final CallerTimeouts timeouts;
    private final CallerReserve reserve;

    GuardedSelector(ServerConnectionSelector selector, CallerTimeouts timeouts, CallerReserve reserve) {
        super(selector);
        this.timeouts = timeouts;
        this.reserve = reserve;
    }

    @Override
    public ServerConnection connection(ConnectionContext context) {
        CallerSocket socket = new CallerSocket(context.serverSocket(), context.dataReader(), timeouts);
        return new Guarded(selector.connection(new GuardedConnection(context, socket)), socket, reserve);
    }

    /** A caller's connection read through its {@link CallerSocket}. */
    private static final class GuardedConnection extends ForwardingConnectionContext {
        private final CallerSocket socket;
        private final DataReader reader;
        private final Http10Writer writer;

        GuardedConnection(ConnectionContext connection, CallerSocket socket) {
            super(connection);
            this.socket = socket;
            this.reader = DataReader.create(() -> read(socket));
            this.writer = new Http10Writer(new SendTimedWriter(connection.dataWriter(), socket));
        }

        @Override
        public DataWriter dataWriter() {
            return writer;
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

    /** A connection whose socket is watched for deadlines while it is handled, and lingers at its end. */
    static final class Guarded implements ServerConnection {
        private final ServerConnection connection;
        private final CallerSocket socket;
        private final CallerReserve reserve;

        Guarded(ServerConnection connection, CallerSocket socket, CallerReserve reserve) {
            this.connection = connection;
            this.socket = socket;
            this.reserve = reserve;
            // Helidon's HTTP/1.1 connection reads on after an answer that says Connection: close (even
            // requests it already holds); asked to close without an interrupt, it stops after the answer.
            socket.endAfterAnswerBy(() -> connection.close(false));
        }

        @Override
        public void handle(Limit limit) throws InterruptedException {
            guarded(() -> connection.handle(limit));
        }

        @SuppressWarnings("removal") // Helidon calls handle(Limit); passed on should anything call this.
        @Override
        public void handle(Semaphore requestSemaphore) throws InterruptedException {
            guarded(() -> connection.handle(requestSemaphore));
        }

        private void guarded(CallerWatch.Handling handling) throws InterruptedException {
            socket.observeOnly(!reserve.enter());
            DeadlineSweeper.SHARED.add(socket);
            try {
                handling.run();
            } finally {
                try {
                    socket.lingerIfAsked();
                } finally {
                    DeadlineSweeper.SHARED.remove(socket);
                    reserve.leave();
                }
            }
        }

        @Override
        public Duration idleTime() {
            return connection.idleTime();
        }

        @Override
        public void close(boolean interrupt) {
            connection.close(interrupt);
            if (interrupt) {
                socket.stopLingering();
            }
        }
    }
}
