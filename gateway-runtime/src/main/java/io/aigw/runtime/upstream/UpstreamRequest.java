package io.aigw.runtime.upstream;

import io.aigw.runtime.routing.Route;

/** A caller's request as the upstream layer needs it: one body per route it may be sent to. */
public interface UpstreamRequest {

    /** Whether the caller asked for a stream of server-sent events. */
    boolean stream();

    /** Returns the body to send along {@code route}; called once per attempt, and only when attempted. */
    byte[] bodyFor(Route route);
}
