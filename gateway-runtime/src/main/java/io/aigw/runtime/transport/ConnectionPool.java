package io.aigw.runtime.transport;

import java.time.Duration;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Idle keep-alive connections to one upstream, most recently used first, so that under light load
 * the same few stay warm and the others age out. Bounded in number and in idle time.
 *
 * <p>It has no thread of its own and does not watch idle sockets: a connection the upstream closed
 * meanwhile is found out when it is next used (see {@link GatewayConnections}), and connections idle
 * too long are closed when a request meets them. Taking and returning are lock-free.
 */
final class ConnectionPool implements AutoCloseable {
    private final Deque<PooledConnection> idle = new ConcurrentLinkedDeque<>();
    /** The deque's size, which the deque itself can only count by walking it. */
    private final AtomicInteger idleCount = new AtomicInteger();
    private final int maxIdle;
    private final long maxIdleNanos;
    private volatile boolean closed;

    ConnectionPool(int maxIdle, Duration maxIdleTime) {
        this.maxIdle = maxIdle;
        this.maxIdleNanos = maxIdleTime.toNanos();
    }

    /** The most recently used idle connection, or null when none is young enough. */
    PooledConnection take() {
        long now = System.nanoTime();
        PooledConnection connection;
        while ((connection = idle.pollFirst()) != null) {
            idleCount.decrementAndGet();
            if (now - connection.idleSince() < maxIdleNanos) {
                return connection;
            }
            connection.closeResource();
        }
        return null;
    }

    /** Keeps a connection whose answer was read in full; false when it must be closed instead. */
    boolean offer(PooledConnection connection) {
        if (closed) {
            return false;
        }
        if (idleCount.incrementAndGet() > maxIdle) {
            idleCount.decrementAndGet();
            return false;
        }
        long now = System.nanoTime();
        connection.idleSince(now);
        idle.offerFirst(connection);
        closeOldestIfExpired(now);
        if (closed) {
            // close() may have emptied the deque just before this connection went in.
            closeAll();
        }
        return true;
    }

    /**
     * The oldest connections sit at the tail, where {@link #take} rarely reaches when traffic falls:
     * each return closes one there if it is too old, so idle sockets do not linger for long.
     */
    private void closeOldestIfExpired(long now) {
        PooledConnection oldest = idle.peekLast();
        if (oldest != null && now - oldest.idleSince() >= maxIdleNanos && idle.removeLastOccurrence(oldest)) {
            idleCount.decrementAndGet();
            oldest.closeResource();
        }
    }

    private void closeAll() {
        PooledConnection connection;
        while ((connection = idle.pollFirst()) != null) {
            idleCount.decrementAndGet();
            connection.closeResource();
        }
    }

    @Override
    public void close() {
        closed = true;
        closeAll();
    }
}
