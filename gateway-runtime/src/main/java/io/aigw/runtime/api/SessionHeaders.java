package io.aigw.runtime.api;

import io.aigw.runtime.pool.Session;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.util.List;
import java.util.Optional;

/**
 * Reads the session a request belongs to from the headers agents send for it,
 * {@code X-Session-Id} or Claude Code's {@code X-Claude-Code-Session-Id}, into the request's
 * context, whatever the endpoint: the pool sends a session's requests to one upstream key. A
 * session named in the body ({@link BodySession}) counts only where these headers name none.
 */
public final class SessionHeaders implements Filter {
    private static final List<HeaderName> HEADERS = List.of(HeaderNames.create("X-Session-Id"),
            HeaderNames.create("X-Claude-Code-Session-Id"));

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        for (HeaderName name : HEADERS) {
            Optional<String> value = request.headers().first(name).map(String::strip).filter(id -> !id.isEmpty());
            if (value.isPresent()) {
                request.context().register(new Session(value.get()));
                break;
            }
        }
        chain.proceed();
    }
}
