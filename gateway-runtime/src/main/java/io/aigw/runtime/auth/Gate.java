package io.aigw.runtime.auth;

import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;

/**
 * One of the front door's checks of a request before its handler ({@link FrontDoor}): it lets the
 * request on, or answers it itself.
 */
@FunctionalInterface
public interface Gate {
    /** True to let the request on; false once this gate has answered it. */
    boolean admits(RoutingRequest request, RoutingResponse response);
}
