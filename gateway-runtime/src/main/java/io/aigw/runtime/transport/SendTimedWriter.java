package io.aigw.runtime.transport;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataWriter;

/**
 * A caller connection's writer whose every write has a deadline ({@code gateway.timeouts.caller-send},
 * nginx's {@code send_timeout}): a write waits only while the caller does not take what the socket
 * holds, so one that waits past the deadline means a caller that stopped reading, and
 * {@link DeadlineSweeper} closes its socket, which fails the write and ends the answer (and, for a
 * stream, its upstream call). The deadline is per write, not for the whole answer: a stream a
 * caller reads slowly but steadily runs as long as it lasts.
 */
final class SendTimedWriter implements DataWriter {
    private final DataWriter writer;
    private final CallerSocket socket;

    SendTimedWriter(DataWriter writer, CallerSocket socket) {
        this.writer = writer;
        this.socket = socket;
    }

    @Override
    public void write(BufferData... buffers) {
        socket.writing();
        try {
            writer.write(buffers);
        } finally {
            socket.written();
        }
    }

    @Override
    public void write(BufferData buffer) {
        socket.writing();
        try {
            writer.write(buffer);
        } finally {
            socket.written();
        }
    }

    @Override
    public void writeNow(BufferData... buffers) {
        socket.writing();
        try {
            writer.writeNow(buffers);
        } finally {
            socket.written();
        }
    }

    @Override
    public void writeNow(BufferData buffer) {
        socket.writing();
        try {
            writer.writeNow(buffer);
        } finally {
            socket.written();
        }
    }

    @Override
    public void flush() {
        socket.writing();
        try {
            writer.flush();
        } finally {
            socket.written();
        }
    }

    @Override
    public void close() {
        writer.close();
    }
}
