package io.aigw.runtime.transport;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.LockSupport;

/**
 * Closes the caller sockets whose read has waited past its deadline: one daemon thread for every
 * gateway in the JVM, looking at the sockets being read once per tick (the shortest tick any of
 * them asks for) and sleeping while there are none.
 */
final class DeadlineSweeper {
    static final DeadlineSweeper SHARED = new DeadlineSweeper();

    private final Set<CallerSocket> sockets = ConcurrentHashMap.newKeySet();
    private volatile Thread thread;
    /** How long the thread sleeps between looks: Long.MAX_VALUE while it has no socket to watch. */
    private volatile long sleepingNanos = Long.MAX_VALUE;

    private DeadlineSweeper() {
    }

    void add(CallerSocket socket) {
        sockets.add(socket);
        Thread running = thread;
        if (running == null) {
            start();
        } else if (socket.tickNanos() < sleepingNanos) {
            // Woken only when it sleeps longer than this socket's tick allows (with no socket to
            // watch it sleeps for good): a new connection otherwise costs the thread a wake-up.
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
        while (true) {
            // Said before the look: a socket added from here on finds a sleep longer than its tick and wakes
            // the thread (an unpark before the park ends it at once).
            sleepingNanos = Long.MAX_VALUE;
            long tick = Long.MAX_VALUE;
            for (CallerSocket socket : sockets) {
                tick = Math.min(tick, socket.tickNanos());
            }
            if (tick == Long.MAX_VALUE) {
                LockSupport.park(this);
                continue;
            }
            sleepingNanos = tick;
            LockSupport.parkNanos(this, tick);
            long now = System.nanoTime();
            for (CallerSocket socket : sockets) {
                socket.closeIfOverdue(now);
            }
        }
    }
}
