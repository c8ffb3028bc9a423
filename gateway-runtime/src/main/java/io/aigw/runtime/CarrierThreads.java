package io.aigw.runtime;

import java.util.Optional;

/**
 * How many carrier threads run the gateway's virtual threads: at least two, even where the JVM may
 * use only one processor.
 *
 * <p>The JDK's scheduler (a {@code ForkJoinPool}) serves the tasks a carrier queued itself before
 * those submitted from outside the pool. Helidon starts each new connection's thread from its
 * accepting platform thread, that is from outside: with a single carrier kept busy by the open
 * connections, a new connection waits, accepted but unread, until that carrier runs dry. A second
 * carrier takes outside tasks while the first is busy. {@code benchmarks/load/new-connections.sh}
 * measures a new caller's wait under load. A JDK matter, not a Helidon one: it stays whatever
 * Helidon does, and {@code -Djdk.virtualThreadScheduler.parallelism} overrides it.
 */
final class CarrierThreads {
    /** The JDK's own setting for the number of carriers (JEP 444). */
    static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";
    private static final int MINIMUM = 2;

    private CarrierThreads() {
    }

    /**
     * The parallelism to set, given the processors the JVM may use and the setting it was started
     * with; empty to leave the JDK's default (one carrier per processor) or the operator's own.
     */
    static Optional<String> parallelismFor(int availableProcessors, Optional<String> configured) {
        if (configured.isPresent() || availableProcessors >= MINIMUM) {
            return Optional.empty();
        }
        return Optional.of(Integer.toString(MINIMUM));
    }

    /**
     * Sets the parallelism where {@link #parallelismFor} says so. Must run before the first virtual
     * thread is made: the JDK reads the setting once, when it creates its scheduler.
     */
    static void configure() {
        parallelismFor(Runtime.getRuntime().availableProcessors(), Optional.ofNullable(System.getProperty(PARALLELISM)))
                .ifPresent(parallelism -> System.setProperty(PARALLELISM, parallelism));
    }
}
