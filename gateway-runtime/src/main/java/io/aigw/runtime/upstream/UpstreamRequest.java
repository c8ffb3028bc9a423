package io.aigw.runtime.upstream;

import io.aigw.runtime.routing.Route;
import io.aigw.spi.UpstreamApi;

/** A caller's request as the upstream layer needs it: one body per route it may be sent to. */
public interface UpstreamRequest {

    /** The upstream API the request is sent to, which every route's provider serves. */
    UpstreamApi api();

    /** The API's wire format: where its answers report usage, how its streams end. */
    WireFormat format();

    /** Whether the caller asked for a stream of server-sent events. */
    boolean stream();

    /** Returns the body to send along {@code route}; called once per attempt, and only when attempted. */
    byte[] bodyFor(Route route);

    /**
     * Whether the body for {@code route} asks for stream usage that the caller did not: the final
     * usage-only chunk is then counted but not relayed.
     */
    boolean addsUsage(Route route);

    /**
     * The upstream along {@code route}, called with its key named {@code keyName}, created {@code id}
     * (the Responses API's response, named by a plain answer or its stream's first event), as soon as
     * the answer names it; by default nothing is remembered.
     */
    default void created(Route route, String keyName, String id) {
    }
}
