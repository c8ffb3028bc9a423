package io.aigw.runtime.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.plugin.PluginSet;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The swap of routing snapshots, and when a replaced one is released: after its last request. */
public final class CurrentRoutesTest {
    private static final PluginSet NO_PLUGINS = new PluginSet(List.of(), List.of());

    private final List<String> events = new ArrayList<>();
    private final CurrentRoutes routes = new CurrentRoutes(RoutingTable.of(List.of()), NO_PLUGINS,
            new CurrentRoutes.Lifecycle(snapshot -> events.add("installed " + snapshot.generation()),
                    snapshot -> events.add("released " + snapshot.generation())));

    @Test
    void aSnapshotNoRequestHoldsIsReleasedAsItIsReplaced() {
        RoutingSnapshot first = routes.current();

        RoutingSnapshot second = routes.swap(RoutingTable.of(List.of()), NO_PLUGINS);

        assertEquals(List.of("installed 1", "installed 2", "released 1"), events);
        assertTrue(first.isReleased());
        assertSame(second, routes.current());
        assertEquals(2, second.generation());
    }

    @Test
    void aReplacedSnapshotIsReleasedWhenItsLastRequestEndsAndNewRequestsGetTheNewOne() {
        RoutingSnapshot streaming = routes.acquire();
        RoutingSnapshot waiting = routes.acquire();

        routes.swap(RoutingTable.of(List.of()), NO_PLUGINS);
        RoutingSnapshot next = routes.acquire();
        streaming.release();

        assertEquals(2, next.generation());
        assertEquals(List.of("installed 1", "installed 2"), events);
        assertFalse(waiting.isReleased());

        waiting.release();
        next.release();

        assertEquals(List.of("installed 1", "installed 2", "released 1"), events);
        assertTrue(waiting.isReleased());
        assertFalse(routes.current().isReleased(), "the current snapshot is held while it is current");
    }
}
