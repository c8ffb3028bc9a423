package io.aigw.runtime.routing;

import io.aigw.runtime.plugin.PluginSet;
import java.lang.System.Logger.Level;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;

/**
 * The routing snapshot in force, replaced in one step by a reload: a request sees the old table or
 * the new one, whole, never a mix.
 */
public final class CurrentRoutes {
    private static final System.Logger LOG = System.getLogger(CurrentRoutes.class.getName());

    /**
     * What the rest of the gateway does as snapshots come and go, each once per snapshot.
     *
     * @param installed runs as a snapshot is about to become current: what its requests need must be ready
     * @param released  runs when a replaced snapshot's last request has ended: what only it needed can go
     */
    public record Lifecycle(Consumer<RoutingSnapshot> installed, Consumer<RoutingSnapshot> released) {
    }

    private final Lifecycle lifecycle;
    private final AtomicReference<RoutingSnapshot> current;
    /** Guarded by {@code this}, as swaps are. */
    private long generations;

    public CurrentRoutes(RoutingTable table, PluginSet plugins, Lifecycle lifecycle) {
        this.lifecycle = lifecycle;
        RoutingSnapshot first = new RoutingSnapshot(++generations, table, plugins, Optional.empty(), this::released);
        lifecycle.installed().accept(first);
        this.current = new AtomicReference<>(first);
    }

    /**
     * The current snapshot, held for the caller until it calls {@link RoutingSnapshot#release()}:
     * a chat request calls this once, first, and releases it when it has ended.
     */
    public RoutingSnapshot acquire() {
        while (true) {
            RoutingSnapshot snapshot = current.get();
            if (snapshot.tryAcquire()) {
                return snapshot;
            }
            // Replaced and released between the read and the hold: the next read sees its successor.
        }
    }

    /** The current snapshot, not held: for answers read from it at once (the model list, health). */
    public RoutingSnapshot current() {
        return current.get();
    }

    /**
     * Makes a new snapshot of {@code table} current; the one it replaces is released when its last
     * request ends, at once when it has none.
     *
     * @return the new snapshot
     */
    public synchronized RoutingSnapshot swap(RoutingTable table, PluginSet plugins) {
        RoutingSnapshot next = new RoutingSnapshot(++generations, table, plugins, Optional.of(current.get()),
                this::released);
        lifecycle.installed().accept(next);
        current.getAndSet(next).release();
        return next;
    }

    private void released(RoutingSnapshot snapshot) {
        lifecycle.released().accept(snapshot);
        LOG.log(Level.INFO, "Routing generation " + snapshot.generation() + " is released: no request uses it any"
                + " more, and its plugins can be unloaded.");
    }
}
