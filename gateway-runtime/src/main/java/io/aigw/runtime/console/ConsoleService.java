package io.aigw.runtime.console;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.auth.WorkspaceKeys;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.error.Jsons;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;

/**
 * {@code /console}: the console's page and files (from the runtime jar), and its session: sign in
 * with a key ({@code POST /api/session}, answered with the session cookie and its CSRF token),
 * who is signed in ({@code GET}), sign out ({@code DELETE}). The key is read once, to sign in: the
 * browser keeps only the cookie, which scripts cannot read.
 */
final class ConsoleService implements HttpService {
    private static final Map<String, String> ASSETS = Map.of(
            "console.js", "text/javascript; charset=utf-8",
            "console.css", "text/css; charset=utf-8",
            "uPlot.iife.min.js", "text/javascript; charset=utf-8",
            "uPlot.min.css", "text/css; charset=utf-8");
    private static final String SIGN_IN_RULE = "The body must be {\"key\": \"sk-gw-...\"}.";

    private final WorkspaceKeys keys;
    private final ConsoleSessions sessions;

    ConsoleService(WorkspaceKeys keys, ConsoleSessions sessions) {
        this.keys = keys;
        this.sessions = sessions;
    }

    /**
     * Who is signed in, and the token state-changing requests carry; never the key.
     *
     * @param keyName null for the master key, which has no name
     */
    record SessionView(String keyId, String keyName, boolean admin, String csrf, long expiresAt) {
        static SessionView of(ConsoleSessions.Session session, Caller caller) {
            return new SessionView(session.keyId(), caller.keyName(), session.admin(), session.csrf(),
                    session.expiresAt().getEpochSecond());
        }
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::page)
                .get("/assets/{name}", this::asset)
                .post("/api/session", this::signIn)
                .get("/api/session", this::current)
                .delete("/api/session", this::signOut);
    }

    private void page(ServerRequest request, ServerResponse response) {
        send(response, "index.html", "text/html; charset=utf-8");
    }

    private void asset(ServerRequest request, ServerResponse response) {
        String name = request.path().pathParameters().get("name");
        String type = ASSETS.get(name);
        if (type == null) {
            throw new ApiException(new ApiError(Status.NOT_FOUND_404, "The console has no file named '" + name
                    + "'.", "invalid_request_error", null, "not_found"));
        }
        response.header(HeaderNames.CACHE_CONTROL, "no-cache");
        send(response, "assets/" + name, type);
    }

    private void signIn(ServerRequest request, ServerResponse response) {
        String key = presentedKey(request);
        Optional<Caller> caller = keys.authenticate(key);
        if (caller.isEmpty()) {
            throw new ApiException(ApiError.invalidApiKey());
        }
        if (caller.get().policy().expiredAt(Instant.now())) {
            throw new ApiException(ApiError.expiredApiKey());
        }
        ConsoleSessions.Started started = sessions.begin(caller.get()).orElseThrow(() -> new ApiException(
                new ApiError(Status.SERVICE_UNAVAILABLE_503, "Too many console sessions are open; try again later.",
                        "server_error", null, "too_many_sessions")));
        response.header(HeaderNames.SET_COOKIE, SessionGate.COOKIE + "=" + started.id() + "; Path=/; HttpOnly;"
                + " SameSite=Strict; Max-Age=" + ConsoleSessions.LIFETIME.toSeconds()
                + (request.isSecure() ? "; Secure" : ""));
        sendJson(response, Status.OK_200, SessionView.of(started.session(), caller.get()));
    }

    private void current(ServerRequest request, ServerResponse response) {
        ConsoleSessions.SignedIn signedIn = request.context().get(ConsoleSessions.SignedIn.class).orElseThrow();
        sendJson(response, Status.OK_200, SessionView.of(signedIn.session(), signedIn.caller()));
    }

    private void signOut(ServerRequest request, ServerResponse response) {
        request.headers().cookies().first(SessionGate.COOKIE).ifPresent(sessions::end);
        response.header(HeaderNames.SET_COOKIE, clearedCookie());
        response.status(Status.NO_CONTENT_204);
        response.send();
    }

    /** A {@code Set-Cookie} value that makes the browser forget the session cookie. */
    static String clearedCookie() {
        return SessionGate.COOKIE + "=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0";
    }

    private static String presentedKey(ServerRequest request) {
        String body = request.content().hasEntity() ? request.content().as(String.class) : "";
        try (var reader = Jsons.PROVIDER.createReader(new StringReader(body))) {
            JsonObject object = reader.readObject();
            if (object.get("key") instanceof JsonString key) {
                return key.getString().strip();
            }
        } catch (JsonException | ClassCastException e) {
            // falls through to the refusal
        }
        throw new ApiException(ApiError.invalidRequest("key", SIGN_IN_RULE));
    }

    static void sendJson(ServerResponse response, Status status, Object document) {
        response.status(status);
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.header(HeaderNames.CACHE_CONTROL, "no-store");
        response.send(Jsons.BINDING.toJson(document).getBytes(StandardCharsets.UTF_8));
    }

    private static void send(ServerResponse response, String resource, String type) {
        try (InputStream in = ConsoleService.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("the runtime jar lacks the console's " + resource);
            }
            response.header(HeaderNames.CONTENT_TYPE, type);
            response.send(in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
