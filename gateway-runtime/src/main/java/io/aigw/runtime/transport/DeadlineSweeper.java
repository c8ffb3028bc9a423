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

    private DeadlineSweeper() {
    }

    void add(CallerSocket socket) {
        sockets.add(socket);
        Thread running = thread;
        if (running == null) {
            start();
        } else {
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
            if (sockets.isEmpty()) {
                LockSupport.park(this);
                continue;
            }
            long tick = Long.MAX_VALUE;
            for (CallerSocket socket : sockets) {
                tick = Math.min(tick, socket.tickNanos());
            }
            LockSupport.parkNanos(this, tick);
            long now = System.nanoTime();
            for (CallerSocket socket : sockets) {
                socket.closeIfOverdue(now);
            }
        }
    }
}
