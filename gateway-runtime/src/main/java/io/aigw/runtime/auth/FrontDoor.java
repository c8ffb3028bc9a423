package io.aigw.runtime.auth;

import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.util.List;

/**
 * The gates a request passes before its handler, one after the other in one filter. As filters of
 * their own, each would nest the rest of the request in its call to the chain: two frames more on
 * the stack that a request's virtual thread copies out and back at each wait on an upstream, where
 * the JDK thaws a stack in one copy only under 500 words (issue 50).
 */
public final class FrontDoor implements Filter {
    private final Gate[] gates;

    /** @param gates in the order they check a request */
    public FrontDoor(List<Gate> gates) {
        this.gates = gates.toArray(Gate[]::new);
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        for (Gate gate : gates) {
            if (!gate.admits(request, response)) {
                return;
            }
        }
        chain.proceed();
    }
}
