package io.aigw.runtime.server;

import java.util.Optional;

/**
 * How many carrier threads run the gateway's virtual threads: at least two, even where the JVM may
 * use only one processor.
 *
 * <p>With one carrier, the JDK's scheduler (a {@code ForkJoinPool}) served the tasks its carrier
 * queued itself (the connections it is serving, woken by each other's I/O) ahead of those submitted
 * from outside the pool, for as long as it had any. Helidon starts each new connection's thread
 * from its accepting platform thread, that is from outside: under a steady load a new connection
 * then waited, accepted but unread, for seconds (up to 36 s in BENCHMARKS.md's fifteenth round)
 * while the connections already open were served in milliseconds. With a second carrier on the
 * same processor, the longest such wait was 72 ms. More processors already mean as many carriers.
 */
public final class CarrierThreads {
    /** The JDK's own setting for the number of carriers (JEP 444). */
    public static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";
    private static final int MINIMUM = 2;

    private CarrierThreads() {
    }

    /**
     * The parallelism to set, given the processors the JVM may use and the setting it was started
     * with; empty to leave the JDK's default (one carrier per processor) or the operator's own.
     */
    public static Optional<String> parallelismFor(int availableProcessors, Optional<String> configured) {
        if (configured.isPresent() || availableProcessors >= MINIMUM) {
            return Optional.empty();
        }
        return Optional.of(Integer.toString(MINIMUM));
    }

    /**
     * Sets the parallelism where {@link #parallelismFor} says so. Must run before the first virtual
     * thread is made: the JDK reads the setting once, when it creates its scheduler.
     */
    public static void configure() {
        parallelismFor(Runtime.getRuntime().availableProcessors(), Optional.ofNullable(System.getProperty(PARALLELISM)))
                .ifPresent(parallelism -> System.setProperty(PARALLELISM, parallelism));
    }
}
