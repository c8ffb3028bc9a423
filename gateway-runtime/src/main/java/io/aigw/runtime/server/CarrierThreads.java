package io.aigw.runtime.server;

import java.util.Optional;

/**
 * How many carrier threads run the gateway's virtual threads: at least two, even where the JVM may
 * use only one processor.
 *
 * <p>With one carrier, the JDK's scheduler (a {@code ForkJoinPool}) keeps running the tasks its
 * carrier queued itself (the connections it is serving, woken by each other's I/O) for as long as
 * there are any, before it looks at those submitted from outside the pool. Helidon starts each new
 * connection's thread from its accepting platform thread, that is from outside: under a steady load
 * a new connection then waited, accepted but unread, for seconds (up to 36 s in BENCHMARKS.md's
 * fifteenth round) while the connections already open were served in milliseconds. A second
 * carrier takes such tasks up whenever its own queue runs dry, which on a busy single processor it
 * does often. More processors already mean as many carriers.
 */
public final class CarrierThreads {
    /** The JDK's own setting for the number of carriers (JEP 444). */
    public static final String PARALLELISM = "jdk.virtualThreadScheduler.parallelism";
    private static final int MINIMUM = 2;

    private CarrierThreads() {
    }

    /**
     * The parallelism to set for this many processors when the JVM was given none, or empty to
     * leave the JDK's default (one carrier per processor) or the operator's choice.
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
