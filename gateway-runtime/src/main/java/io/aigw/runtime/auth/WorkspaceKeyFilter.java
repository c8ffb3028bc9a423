package io.aigw.runtime.auth;

import io.aigw.runtime.error.ApiError;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.util.Optional;

/**
 * Lets a request under {@code /api/} through only with {@code Authorization: Bearer <workspace key>}.
 * Every way of failing (no header, another scheme, a wrong prefix, an unknown key) gets the same 401,
 * so nothing tells a caller which it was.
 */
public final class WorkspaceKeyFilter implements Filter {
    /** The request context entry holding the authenticated key's id. */
    public static final String KEY_ID = "aigw.key-id";

    private static final String BEARER = "Bearer ";

    private final WorkspaceKeys keys;

    public WorkspaceKeyFilter(WorkspaceKeys keys) {
        this.keys = keys;
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        if (!request.path().path().startsWith("/api/")) {
            chain.proceed();
            return;
        }
        Optional<String> keyId = request.headers().first(HeaderNames.AUTHORIZATION)
                .filter(value -> value.regionMatches(true, 0, BEARER, 0, BEARER.length()))
                .map(value -> value.substring(BEARER.length()).strip())
                .flatMap(keys::authenticate);
        if (keyId.isEmpty()) {
            ApiError.invalidApiKey().send(response);
            return;
        }
        request.context().register(KEY_ID, keyId.get());
        chain.proceed();
    }
}
