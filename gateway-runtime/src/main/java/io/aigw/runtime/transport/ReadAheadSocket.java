package io.aigw.runtime.transport;

import io.helidon.common.buffers.DataReader;
import io.helidon.common.socket.HelidonSocket;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedByInterruptException;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A caller's socket that can be read ahead while its request is handled, to notice the caller
 * leaving: nothing else reads a caller's connection while its handler waits on an upstream, and
 * only a read sees the end a closed connection sends. The read ahead is the connection's next read:
 * what it gets (the next request's bytes, or the end) is what the connection's reader gets next, so
 * no byte is lost or reordered. At most one read is in flight.
 *
 * <p>Bytes Helidon's own reader took from the socket before this one (to pick the protocol) come first.
 */
final class ReadAheadSocket extends ForwardingSocket {
    private final DataReader helidonsReader;
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition readDone = lock.newCondition();
    /** The read ahead in flight or done and not yet taken; guarded by {@link #lock}. */
    private ReadAhead pending;

    ReadAheadSocket(HelidonSocket socket, DataReader helidonsReader) {
        super(socket);
        this.helidonsReader = helidonsReader;
    }

    /** One read made ahead of the connection's reader; its fields are guarded by the socket's lock. */
    private static final class ReadAhead {
        private byte[] bytes;
        private RuntimeException failure;
        private boolean done;
        /** Called if the read finds the caller gone while this is set. */
        private Runnable whenLeft;

        private boolean callerLeft() {
            return done && bytes == null;
        }
    }

    /**
     * Reads ahead until {@link Watching#close()}, calling {@code whenLeft} (on another thread) if the
     * caller's connection ends meanwhile, or at once if a read ahead already found it ended. A read
     * ahead that got bytes (a request sent before the answer to this one) stops the watch: nothing
     * more is read until the connection takes those.
     */
    Watching watch(Runnable whenLeft) {
        boolean leftAlready;
        ReadAhead read;
        lock.lock();
        try {
            read = pending;
            if (read == null) {
                read = new ReadAhead();
                pending = read;
                ReadAhead started = read;
                Thread.ofVirtual().name("aigw-caller-watch").start(() -> readAhead(started));
            }
            leftAlready = read.callerLeft();
            if (!read.done) {
                read.whenLeft = whenLeft;
            }
        } finally {
            lock.unlock();
        }
        if (leftAlready) {
            whenLeft.run();
        }
        ReadAhead watched = read;
        return () -> {
            lock.lock();
            try {
                watched.whenLeft = null;
            } finally {
                lock.unlock();
            }
        };
    }

    /** A watch that ends with the handling of its request. */
    interface Watching extends AutoCloseable {
        @Override
        void close();
    }

    private void readAhead(ReadAhead read) {
        byte[] bytes = null;
        RuntimeException failure = null;
        try {
            bytes = socket.get();
        } catch (RuntimeException e) {
            failure = e;
        }
        Runnable left;
        lock.lock();
        try {
            read.bytes = bytes;
            read.failure = failure;
            read.done = true;
            left = bytes == null ? read.whenLeft : null;
            read.whenLeft = null;
            readDone.signalAll();
        } finally {
            lock.unlock();
        }
        if (left != null) {
            left.run();
        }
    }

    /** The next bytes from the caller: what Helidon's reader held, a read ahead's, or a read of its own. */
    @Override
    public byte[] get() {
        if (helidonsReader.available() > 0) {
            return helidonsReader.readBytes(helidonsReader.available());
        }
        ReadAhead read;
        lock.lock();
        try {
            read = pending;
            if (read != null) {
                // The connection reads on: no one watches for the caller leaving any more.
                read.whenLeft = null;
                awaitDone(read);
                pending = null;
            }
        } finally {
            lock.unlock();
        }
        if (read == null) {
            return socket.get();
        }
        if (read.failure != null) {
            throw read.failure;
        }
        return read.bytes;
    }

    /**
     * Waits for a read ahead to end. Interrupted, as Helidon interrupts a connection that idles past
     * its timeout or at shutdown, the wait ends as an interrupted read of a channel does: the socket
     * closes (which ends the read ahead too) and the read fails.
     */
    private void awaitDone(ReadAhead read) {
        while (!read.done) {
            try {
                readDone.await();
            } catch (InterruptedException e) {
                socket.close();
                Thread.currentThread().interrupt();
                throw new UncheckedIOException(new ClosedByInterruptException());
            }
        }
    }
}
