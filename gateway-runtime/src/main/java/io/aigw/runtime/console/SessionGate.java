package io.aigw.runtime.console;

import io.aigw.runtime.auth.Gate;
import io.aigw.runtime.error.ApiError;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Method;
import io.helidon.http.Status;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.net.URI;
import java.util.Optional;
import java.util.Set;

/**
 * The console's side of the front door, before the workspace key gate. Every {@code /console}
 * answer gets the console's security headers (a strict Content-Security-Policy: scripts and styles
 * from the gateway's own files alone). A request to {@code /console/api/} or {@code /admin/} that
 * carries a console session cookie and no {@code Authorization} acts for the session's key, whose
 * caller it registers for the key gate and the handlers; a state-changing one must also come
 * from the gateway's own origin and carry the session's CSRF token in {@link #CSRF_HEADER}. A
 * session the store no longer backs gets a 401 and its cookie cleared.
 */
final class SessionGate implements Gate {
    static final String COOKIE = "aigw_console";
    static final String CSRF_HEADER = "X-Console-Csrf";
    static final String SIGN_IN = "/console/api/session";
    private static final HeaderName CSRF = HeaderNames.create(CSRF_HEADER);
    private static final HeaderName SEC_FETCH_SITE = HeaderNames.create("Sec-Fetch-Site");
    private static final Set<Method> SAFE = Set.of(Method.GET, Method.HEAD, Method.OPTIONS);
    private static final String POLICY = "default-src 'none'; script-src 'self'; style-src 'self';"
            + " img-src 'self' data:; connect-src 'self'; font-src 'self'; form-action 'self';"
            + " frame-ancestors 'none'; base-uri 'none'";

    private final ConsoleSessions sessions;

    SessionGate(ConsoleSessions sessions) {
        this.sessions = sessions;
    }

    @Override
    public boolean admits(RoutingRequest request, RoutingResponse response) {
        String path = request.path().path();
        boolean console = path.equals("/console") || path.startsWith("/console/");
        if (console) {
            response.header("Content-Security-Policy", POLICY);
            response.header("X-Content-Type-Options", "nosniff");
            response.header("Referrer-Policy", "no-referrer");
            response.header("X-Frame-Options", "DENY");
        }
        boolean api = path.startsWith("/console/api/");
        boolean admin = path.startsWith("/admin/");
        if (!api && !admin || admin && request.headers().contains(HeaderNames.AUTHORIZATION)) {
            return true;
        }
        boolean changes = !SAFE.contains(request.prologue().method());
        if (changes && !sameOrigin(request)) {
            refuse(response, "This request comes from another site; the console answers its own pages only.");
            return false;
        }
        Optional<String> cookie = cookie(request);
        if (api && path.equals(SIGN_IN) && request.prologue().method() == Method.POST) {
            return true;
        }
        if (cookie.isEmpty()) {
            if (api) {
                signedOut(response);
                return false;
            }
            return true; // the key gate answers: no key
        }
        Optional<ConsoleSessions.SignedIn> signedIn = sessions.find(cookie.get());
        if (signedIn.isEmpty()) {
            signedOut(response);
            return false;
        }
        if (changes && !ConsoleSessions.sameToken(signedIn.get().session().csrf(),
                request.headers().first(CSRF).orElse(null))) {
            refuse(response, "This request lacks the console session's " + CSRF_HEADER + " token.");
            return false;
        }
        request.context().register(signedIn.get());
        request.context().register(signedIn.get().caller());
        return true;
    }

    /** The session cookie's value, if the request carries one. */
    static Optional<String> cookie(RoutingRequest request) {
        var cookies = request.headers().cookies();
        return cookies.contains(COOKIE) ? Optional.of(cookies.get(COOKIE)) : Optional.empty();
    }

    /**
     * Whether the browser says the request comes from a page of this gateway: {@code Origin}, when
     * sent, names the host the request went to, and {@code Sec-Fetch-Site}, when sent, is
     * {@code same-origin}. A request with neither is no browser's cross-site request.
     */
    private static boolean sameOrigin(RoutingRequest request) {
        Optional<String> site = request.headers().first(SEC_FETCH_SITE);
        if (site.isPresent() && !site.get().equals("same-origin") && !site.get().equals("none")) {
            return false;
        }
        Optional<String> origin = request.headers().first(HeaderNames.ORIGIN);
        if (origin.isEmpty()) {
            return true;
        }
        Optional<String> host = request.headers().first(HeaderNames.HOST);
        try {
            URI uri = URI.create(origin.get());
            return host.isPresent() && uri.getRawAuthority() != null
                    && uri.getRawAuthority().equalsIgnoreCase(host.get());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static void refuse(RoutingResponse response, String message) {
        new ApiError(Status.FORBIDDEN_403, message, "permission_error", null, "cross_site_request").send(response);
    }

    private static void signedOut(RoutingResponse response) {
        response.header(HeaderNames.SET_COOKIE, ConsoleService.clearedCookie());
        new ApiError(Status.UNAUTHORIZED_401, "The console session ended or never began: sign in again.",
                "authentication_error", null, "session_ended").send(response);
    }
}
