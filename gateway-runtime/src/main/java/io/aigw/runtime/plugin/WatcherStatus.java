package io.aigw.runtime.plugin;

import java.time.Instant;

/**
 * What the plugins folder watcher ({@link FolderWatcher}) is doing, for health to report: a
 * watcher that stopped while the gateway runs leaves every later change of the folder unloaded
 * until a reload is asked for by hand or the gateway restarts.
 */
public final class WatcherStatus {

    /** The watcher's state. */
    public sealed interface State {

        /**
         * Not watching: not asked to, or the folder could not be watched at start (the log said why).
         *
         * @param why in words
         */
        record Off(String why) implements State {
        }

        /** Watching the plugins folder since {@code since}. */
        record Watching(Instant since) implements State {
        }

        /**
         * Stopped while the gateway runs: changes in the folder are no longer loaded by themselves.
         *
         * @param fault what stopped it
         */
        record Stopped(String fault, Instant since) implements State {
        }
    }

    private volatile State state = new State.Off("not started yet");

    public State state() {
        return state;
    }

    void set(State next) {
        state = next;
    }
}
