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
 * context, whatever the endpoint: the pool sends a session's requests to one upstream key.
 */
public final class SessionHeaders implements Filter {
    private static final List<HeaderName> HEADERS = List.of(HeaderNames.create("X-Session-Id"),
            HeaderNames.create("X-Claude-Code-Session-Id"));
    /** Only hashed, never stored or shown: more than this says nothing more of the session. */
    private static final int MAX_LENGTH = 256;

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        for (HeaderName name : HEADERS) {
            Optional<String> value = request.headers().first(name).map(String::strip).filter(id -> !id.isEmpty());
            if (value.isPresent()) {
                String id = value.get();
                request.context().register(new Session(id.length() > MAX_LENGTH ? id.substring(0, MAX_LENGTH) : id));
                break;
            }
        }
        chain.proceed();
    }
}
