package io.aigw.runtime.admin;

import io.aigw.runtime.auth.StoredKeys;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.StoredKey;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.time.Instant;
import java.util.List;

/**
 * {@code /admin/v1/keys}: issue ({@code POST}), list ({@code GET}) and revoke ({@code DELETE /{id}})
 * workspace keys. Only admin keys get here (see the auth filter). A key's text appears once, in
 * the answer that creates it. Bodies are records, read and written as {@link JsonBodies} says.
 */
public final class AdminKeysService implements HttpService {
    private static final String EXAMPLE = "{\"name\": \"billing-service\"}";
    private static final String NAME_RULE = "'name' must be a non-empty string of at most " + KeyIssuer.MAX_NAME
            + " characters, without control characters.";

    private final GatewayStore store;
    private final KeyIssuer issuer;
    private final StoredKeys keys;

    public AdminKeysService(GatewayStore store, StoredKeys keys) {
        this.store = store;
        this.issuer = new KeyIssuer(store);
        this.keys = keys;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/", this::create)
                .get("/", this::list)
                .delete("/{id}", this::revoke);
    }

    /** The body of {@code POST /admin/v1/keys}. */
    public record NewKey(String name) {
    }

    /** The answer to {@code POST /admin/v1/keys}: the only place the key's text ever appears. */
    @JsonbPropertyOrder({"id", "name", "key", "createdAt"})
    public record CreatedKey(String id, String name, String key, long createdAt) {
    }

    /** The answer to {@code GET /admin/v1/keys}. */
    public record KeyList(List<ListedKey> data) {
    }

    /** A key in the list, without its text; times in unix seconds, {@code revokedAt} null while it works. */
    @JsonbPropertyOrder({"id", "name", "createdAt", "revokedAt"})
    public record ListedKey(String id, String name, long createdAt, Long revokedAt) {
        static ListedKey of(StoredKey key) {
            return new ListedKey(key.id(), key.name(), key.createdAt().getEpochSecond(),
                    key.revokedAt().map(Instant::getEpochSecond).orElse(null));
        }
    }

    private void create(ServerRequest request, ServerResponse response) {
        // A POST without a body has no entity at all, and asking it for bytes throws.
        String name = nameFrom(request.content().hasEntity() ? request.content().as(byte[].class) : new byte[0]);
        KeyIssuer.IssuedKey issued = issuer.issue(name, false);
        JsonBodies.send(response, Status.CREATED_201, new CreatedKey(issued.stored().id(), issued.stored().name(),
                issued.key(), issued.stored().createdAt().getEpochSecond()));
    }

    private void list(ServerRequest request, ServerResponse response) {
        JsonBodies.send(response, Status.OK_200, new KeyList(store.listKeys().stream().map(ListedKey::of).toList()));
    }

    private void revoke(ServerRequest request, ServerResponse response) {
        String id = request.path().pathParameters().get("id");
        if (!store.revokeKey(id)) {
            throw new ApiException(new ApiError(Status.NOT_FOUND_404, "No workspace key has the id '" + id + "'.",
                    "invalid_request_error", "id", "key_not_found"));
        }
        // Other replicas notice within the key cache time; this one at once.
        keys.forgetCached();
        response.status(Status.NO_CONTENT_204);
        response.send();
    }

    /**
     * The key name a body asks for, without surrounding blanks: by {@link JsonBodies}' rules, and
     * refused naming {@code name} when it is missing, null, of another kind or not a valid name.
     */
    private static String nameFrom(byte[] body) {
        String name = JsonBodies.read(body, NewKey.class, EXAMPLE, member -> NAME_RULE).name();
        String stripped = name == null ? "" : name.strip();
        if (!KeyIssuer.isValidName(stripped)) {
            throw new ApiException(ApiError.invalidRequest("name", NAME_RULE));
        }
        return stripped;
    }
}
