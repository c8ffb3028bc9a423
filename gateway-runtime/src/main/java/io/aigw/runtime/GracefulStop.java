package io.aigw.runtime;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import sun.misc.Signal;

/**
 * Stops the gateway on SIGTERM or SIGINT, then exits 0: a clean stop (the JVM's own handling would
 * report 143, "killed by SIGTERM").
 *
 * <p>The stop runs on the signal's thread while the JVM still runs normally, and the JVM shuts down
 * after it. Run from a shutdown hook, the requests finishing in the grace period would share the
 * JVM's shutdown with the other hooks, the logging's reset among them (their log lines were lost),
 * and with its refusal of new hooks: Helidon's web client adds one when its connection cache is
 * first loaded, so the first call to a provider within the grace period failed (500).
 * A hook still stops the gateway when the JVM ends another way (SIGHUP, or where these signals
 * cannot be handled).
 */
final class GracefulStop {
    private static final List<String> SIGNALS = List.of("TERM", "INT");

    private final Runnable stop;
    private final AtomicBoolean begun = new AtomicBoolean();

    private GracefulStop(Runnable stop) {
        this.stop = stop;
    }

    /** Runs {@code stop} once, on the first of SIGTERM, SIGINT or the JVM's shutdown, then exits 0. */
    static void install(Runnable stop) {
        GracefulStop graceful = new GracefulStop(stop);
        Runtime.getRuntime().addShutdownHook(new Thread(graceful::onShutdown, "aigw-shutdown"));
        for (String name : SIGNALS) {
            try {
                Signal.handle(new Signal(name), signal -> graceful.onSignal());
            } catch (IllegalArgumentException e) {
                // The JVM keeps this signal to itself (-Xrs) or the platform lacks it: the hook stops.
            }
        }
    }

    /**
     * The stop gets a thread of its own, not a daemon as the signal's is: once the server stops
     * listening, no other thread would keep the JVM from ending in the middle of the grace period.
     * A second signal while the first one's stop runs changes nothing: the grace period bounds it.
     */
    private void onSignal() {
        Thread.ofPlatform().name("aigw-stop").daemon(false).start(() -> {
            if (stopOnce()) {
                System.exit(0);
            }
        });
    }

    private void onShutdown() {
        if (stopOnce()) {
            System.out.flush();
            Runtime.getRuntime().halt(0);
        }
    }

    private boolean stopOnce() {
        if (!begun.compareAndSet(false, true)) {
            return false;
        }
        stop.run();
        return true;
    }
}
