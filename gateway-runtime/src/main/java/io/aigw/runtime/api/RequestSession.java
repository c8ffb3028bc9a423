package io.aigw.runtime.api;

import io.aigw.runtime.pool.Session;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.ServerRequestHeaders;
import io.helidon.webserver.http.ServerRequest;
import java.util.Optional;

/**
 * The session a request belongs to, which the pool keeps on one upstream key: the one the headers
 * agents send for it name ({@code X-Session-Id}, else Claude Code's {@code X-Claude-Code-Session-Id}),
 * else the one its body names ({@link BodySession}). Read by the endpoints that call an upstream,
 * once they have their body, rather than by a filter on every request: a filter is a frame more on
 * every request's stack, and a request's thread copies its stack each time it waits on an upstream.
 */
final class RequestSession {
    private static final HeaderName SESSION_ID = HeaderNames.create("X-Session-Id");
    private static final HeaderName CLAUDE_CODE_SESSION_ID = HeaderNames.create("X-Claude-Code-Session-Id");

    private RequestSession() {
    }

    /** Puts the request's session, if it names one, in its context. */
    static void register(ServerRequest request, Optional<String> bodyNamed) {
        String id = named(request.headers(), SESSION_ID);
        if (id == null) {
            id = named(request.headers(), CLAUDE_CODE_SESSION_ID);
        }
        if (id == null) {
            id = bodyNamed.orElse(null);
        }
        if (id != null) {
            request.context().register(new Session(id));
        }
    }

    /** The header's value without its surrounding white space, or null when it is absent or blank. */
    private static String named(ServerRequestHeaders headers, HeaderName name) {
        if (!headers.contains(name)) {
            return null;
        }
        String value = headers.get(name).get().strip();
        return value.isEmpty() ? null : value;
    }
}
