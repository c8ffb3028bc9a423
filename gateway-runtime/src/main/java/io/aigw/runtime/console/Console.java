package io.aigw.runtime.console;

import io.aigw.runtime.admin.OwnKeyService;
import io.aigw.runtime.auth.Gate;
import io.aigw.runtime.auth.WorkspaceKeys;
import io.aigw.runtime.observe.RecentExchanges;
import io.aigw.runtime.store.GatewayStore;
import io.helidon.webserver.http.HttpRouting;
import java.time.Clock;

/**
 * The console ({@code gateway.console.enabled}): its session gate, which must come before the
 * workspace key gate, and its routes. Its pages read and change through the admin API. Off, the
 * gateway builds none of it: no ring on the request path, no routes.
 */
public final class Console {
    private final ConsoleSessions sessions;
    private final WorkspaceKeys keys;
    private final RecentExchanges ring;
    private final GatewayStore store;

    public Console(WorkspaceKeys keys, GatewayStore store, RecentExchanges ring) {
        this.sessions = new ConsoleSessions(store, Clock.systemUTC());
        this.store = store;
        this.keys = keys;
        this.ring = ring;
    }

    /**
     * The console's gate at the front door: it must come before the workspace key gate, which
     * takes the caller of a signed-in session it registered.
     */
    public Gate sessionGate() {
        return new SessionGate(sessions);
    }

    /** Adds the console's routes: its pages, its session, its live stream and a key's view of itself. */
    public void register(HttpRouting.Builder routing) {
        routing.register("/console", new ConsoleService(keys, sessions))
                .get("/console/api/live", new LiveStream(ring, sessions))
                .register("/console/api/self", new OwnKeyService(store));
    }
}
