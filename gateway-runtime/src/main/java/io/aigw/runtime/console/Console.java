package io.aigw.runtime.console;

import io.aigw.runtime.admin.OwnKeyService;
import io.aigw.runtime.auth.WorkspaceKeys;
import io.aigw.runtime.observe.RecentExchanges;
import io.aigw.runtime.store.GatewayStore;
import io.helidon.webserver.http.HttpRouting;
import java.time.Clock;

/**
 * The console ({@code gateway.console.enabled}): its session filter, which must come before the
 * workspace key filter, and its routes. Its pages read and change through the admin API. Off, the
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
     * Adds the session filter and the console's routes: its pages, its session, its live stream
     * and a key's view of itself. Call it before the workspace key filter is added, which must
     * come after the session filter.
     */
    public void register(HttpRouting.Builder routing) {
        routing.addFilter(new SessionFilter(sessions))
                .register("/console", new ConsoleService(keys, sessions))
                .get("/console/api/live", new LiveStream(ring, sessions))
                .register("/console/api/self", new OwnKeyService(store));
    }
}
