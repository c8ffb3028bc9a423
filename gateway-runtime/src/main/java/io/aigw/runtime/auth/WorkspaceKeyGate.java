package io.aigw.runtime.auth;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ErrorShape;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Lets a request under {@code /api/} through only with {@code Authorization: Bearer <workspace key>},
 * one under {@code /anthropic/} with the key as {@code x-api-key} (what the Anthropic SDKs and Claude
 * Code's {@code ANTHROPIC_API_KEY} send) or as a Bearer token ({@code ANTHROPIC_AUTH_TOKEN}), and
 * one under {@code /admin/} only with an admin key. Refusals take the error shape of the path's
 * surface ({@link ErrorShape}). Every way of failing (no header, another
 * scheme, a wrong prefix, an unknown or revoked key) takes the same path and gets the same 401, so
 * neither the answer nor its timing tells a caller which it was. A key past its {@code expires_at}
 * gets a 401 too, whose message says it expired: its holder may know that much. A request of a
 * console session comes with its caller already known (see the console's session gate) and goes
 * through the same checks of expiry and rights.
 */
public final class WorkspaceKeyGate implements Gate {
    private static final String BEARER = "Bearer ";
    private static final HeaderName X_API_KEY = HeaderNames.create("x-api-key");
    private static final HeaderName REQUEST_ID = HeaderNames.create("X-Request-Id");

    private final WorkspaceKeys keys;

    public WorkspaceKeyGate(WorkspaceKeys keys) {
        this.keys = keys;
    }

    @Override
    public boolean admits(RoutingRequest request, RoutingResponse response) {
        String path = request.path().path();
        boolean admin = path.startsWith("/admin/");
        ErrorShape shape = ErrorShape.forPath(path);
        if (!admin && shape != ErrorShape.ANTHROPIC && !path.startsWith("/api/")) {
            return true;
        }
        // The console's session gate, before this one, registered the caller of a signed-in session:
        // on /admin/ only. Not looked for elsewhere, since a lookup that misses walks every parent
        // context, each under its lock (0.3 us a request).
        Optional<Caller> signedIn = admin ? request.context().get(Caller.class) : Optional.empty();
        List<String> apiKey = request.headers().all(X_API_KEY, List::of);
        String presented = shape == ErrorShape.ANTHROPIC && !apiKey.isEmpty()
                ? (apiKey.size() == 1 ? apiKey.get(0).strip() : "")
                : bearer(request.headers().all(HeaderNames.AUTHORIZATION, List::of));
        Optional<Caller> caller = signedIn.isPresent() ? signedIn : keys.authenticate(presented, request.context());
        // The outermost filter has given the request its id, on the answer already.
        String requestId = response.headers().first(REQUEST_ID).orElse(null);
        if (caller.isEmpty()) {
            (shape == ErrorShape.ANTHROPIC ? ApiError.invalidAnthropicKey() : ApiError.invalidApiKey())
                    .send(response, shape, requestId);
            return false;
        }
        if (caller.get().policy().expiredAt(Instant.now())) {
            ApiError.expiredApiKey().send(response, shape, requestId);
            return false;
        }
        if (admin && !caller.get().admin()) {
            new ApiError(Status.FORBIDDEN_403, "This workspace key may not use the admin API; use the master key.",
                    "permission_error", null, "insufficient_permissions").send(response);
            return false;
        }
        request.context().register(caller.get());
        return true;
    }

    /**
     * The key in a lone {@code Authorization: Bearer} header, else empty: two Authorization headers
     * are ambiguous (a proxy and the gateway might pick different ones), so they count as none.
     */
    private static String bearer(List<String> authorization) {
        return authorization.size() != 1 ? ""
                : Optional.of(authorization.get(0))
                        .filter(value -> value.regionMatches(true, 0, BEARER, 0, BEARER.length()))
                        .map(value -> value.substring(BEARER.length()).strip())
                        .orElse("");
    }
}
