package io.aigw.runtime.transport;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The callers' share of the listener's connections, and a reserve beyond it for health and
 * metrics: the listener takes {@link #listenerLimit()} connections at once, and a connection opened
 * while the callers' share is taken may ask for {@code /observe/*} alone (anything else gets 503
 * and the connection closes), and must send it within a second. So a load balancer's or
 * Kubernetes' checks are answered while idle or slow callers fill the callers' share, until the
 * caller timeouts clear it; idle connections in the reserve itself are let go after a second.
 */
public final class CallerReserve {
    /** Connections kept for {@code /observe/*} beyond the callers' share. */
    public static final int RESERVE = 16;

    private final int callers;
    private final AtomicInteger open = new AtomicInteger();

    /** @param callers connections callers may hold at once ({@code server.max-tcp-connections}) */
    public CallerReserve(int callers) {
        this.callers = callers;
    }

    /** How many connections the listener takes at once: the callers' and the reserve. */
    public int listenerLimit() {
        return callers > Integer.MAX_VALUE - RESERVE ? Integer.MAX_VALUE : callers + RESERVE;
    }

    /** A connection opens; true if it is within the callers' share, false if it is in the reserve. */
    boolean enter() {
        return open.incrementAndGet() <= callers;
    }

    /** A connection that entered has closed. */
    void leave() {
        open.decrementAndGet();
    }

    int callers() {
        return callers;
    }
}
