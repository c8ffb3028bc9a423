package io.aigw.runtime.transport;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Closes the caller sockets whose read has waited past its deadline: one daemon thread for every
 * gateway in the JVM, looking at the sockets being read once per tick (the shortest tick any of
 * them asks for), and sleeping once there have been none for a minute.
 *
 * <p>Not at once: a thread that sleeps until the next socket must be woken by that socket's
 * connection, before its first read, and on one CPU the wake-up takes the CPU from the connection
 * (a context switch or two, at every caller that opens a connection a request after a quiet
 * second: a script, a health check, a stream's client). Looking on for a minute costs a wake-up a
 * tick, at the end of the traffic, instead.
 */
final class DeadlineSweeper {
    static final DeadlineSweeper SHARED = new DeadlineSweeper();
    private static final long IDLE_BEFORE_SLEEP_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final Set<CallerSocket> sockets = ConcurrentHashMap.newKeySet();
    private volatile Thread thread;
    /** How long the thread sleeps between looks: Long.MAX_VALUE while it sleeps until the next socket. */
    private volatile long sleepingNanos = Long.MAX_VALUE;

    private DeadlineSweeper() {
    }

    void add(CallerSocket socket) {
        sockets.add(socket);
        Thread running = thread;
        if (running == null) {
            start();
        } else if (socket.tickNanos() < sleepingNanos) {
            // Woken only when it sleeps longer than this socket's tick allows (after a minute without
            // sockets it sleeps for good): a new connection otherwise costs the thread a wake-up.
            LockSupport.unpark(running);
        }
    }

    void remove(CallerSocket socket) {
        sockets.remove(socket);
    }

    private synchronized void start() {
        if (thread == null) {
            thread = Thread.ofPlatform().name("aigw-caller-timeouts").daemon(true).start(this::sweep);
        }
    }

    private void sweep() {
        long tick = Long.MAX_VALUE;
        long lastSeen = 0;
        while (true) {
            // Said before the look: a socket added from here on finds a sleep longer than its tick and wakes
            // the thread (an unpark before the park ends it at once).
            sleepingNanos = Long.MAX_VALUE;
            long shortest = Long.MAX_VALUE;
            for (CallerSocket socket : sockets) {
                shortest = Math.min(shortest, socket.tickNanos());
            }
            long now = System.nanoTime();
            if (shortest != Long.MAX_VALUE) {
                tick = shortest;
                lastSeen = now;
            } else if (tick == Long.MAX_VALUE || now - lastSeen > IDLE_BEFORE_SLEEP_NANOS) {
                tick = Long.MAX_VALUE;
                LockSupport.park(this);
                continue;
            }
            sleepingNanos = tick;
            LockSupport.parkNanos(this, tick);
            now = System.nanoTime();
            for (CallerSocket socket : sockets) {
                socket.closeIfOverdue(now);
            }
        }
    }
}
