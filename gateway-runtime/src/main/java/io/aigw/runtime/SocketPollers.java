package io.aigw.runtime;

import java.util.Optional;

/**
 * How a virtual thread waits for its socket where the JVM may use only one processor: on the JDK's
 * poller threads, platform threads blocked in epoll that wake the waiting thread, rather than on
 * JDK 25's default on Linux, pollers that are themselves virtual threads, parked on a master poller
 * whenever they find nothing to do.
 *
 * <p>On one processor the gateway is idle at each such wait's end: a request on a kept-alive
 * connection that was quiet, an upstream's answer. With virtual-thread pollers that took the master
 * poller's wake-up, the carrier's, the sub-poller's turn on it (a poll and a registration with the
 * master) and then the request's thread: 11 futex and 5.6 epoll calls a request on one connection,
 * against 6 and 2 with poller threads. Measured with {@code benchmarks/load/paired.sh} on one CPU
 * (issue 50): +p50 at one connection 0.946 (0.900-0.986) of the default's, req/s at 32 connections
 * 1.010 (0.999-1.039). On more processors the wake-ups run beside the requests, not in their place, and the
 * JDK's default stays. Only on the JDKs whose modes were measured: a later one may have other
 * modes, and a value it does not know fails every socket wait. {@code -Djdk.pollerMode} overrides
 * it.
 */
final class SocketPollers {
    /** The JDK's own setting of how virtual threads wait for sockets ({@code sun.nio.ch.Poller}). */
    static final String MODE = "jdk.pollerMode";
    /** Platform poller threads, in JDK 21-25's numbering. */
    static final String PLATFORM_THREADS = "1";
    private static final int LAST_MEASURED_JDK = 25;

    private SocketPollers() {
    }

    /**
     * The mode to set, given the processors the JVM may use, its feature version and the setting it
     * was started with; empty to leave the JDK's default or the operator's own.
     */
    static Optional<String> modeFor(int availableProcessors, int javaFeature, Optional<String> configured) {
        if (configured.isPresent() || availableProcessors > 1 || javaFeature > LAST_MEASURED_JDK) {
            return Optional.empty();
        }
        return Optional.of(PLATFORM_THREADS);
    }

    /**
     * Sets the mode where {@link #modeFor} says so. Must run before a virtual thread first waits
     * for a socket: the JDK reads the setting once, when it starts its pollers.
     */
    static void configure() {
        modeFor(Runtime.getRuntime().availableProcessors(), Runtime.version().feature(),
                Optional.ofNullable(System.getProperty(MODE)))
                .ifPresent(mode -> System.setProperty(MODE, mode));
    }
}
