package io.aigw.runtime.admin;

import io.aigw.runtime.auth.StoredKeys;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.StoredKey;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import java.io.ByteArrayInputStream;

/**
 * {@code /admin/v1/keys}: issue ({@code POST}), list ({@code GET}) and revoke ({@code DELETE /{id}})
 * workspace keys. Only admin keys get here (see the auth filter). A key's text appears once, in
 * the answer that creates it.
 */
public final class AdminKeysService implements HttpService {
    private static final int MAX_NAME = 200;

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

    private void create(ServerRequest request, ServerResponse response) {
        String name = nameFrom(request.content().as(byte[].class));
        KeyIssuer.IssuedKey issued = issuer.issue(name, false);
        JsonObjectBuilder body = Json.createObjectBuilder()
                .add("id", issued.stored().id())
                .add("name", issued.stored().name())
                .add("key", issued.key())
                .add("created_at", issued.stored().createdAt().getEpochSecond());
        response.status(Status.CREATED_201);
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.send(body.build().toString());
    }

    private void list(ServerRequest request, ServerResponse response) {
        JsonArrayBuilder data = Json.createArrayBuilder();
        for (StoredKey key : store.listKeys()) {
            JsonObjectBuilder entry = Json.createObjectBuilder()
                    .add("id", key.id())
                    .add("name", key.name())
                    .add("created_at", key.createdAt().getEpochSecond());
            key.revokedAt().ifPresentOrElse(at -> entry.add("revoked_at", at.getEpochSecond()),
                    () -> entry.addNull("revoked_at"));
            data.add(entry);
        }
        response.header(HeaderValues.CONTENT_TYPE_JSON);
        response.send(Json.createObjectBuilder().add("data", data).build().toString());
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

    private static String nameFrom(byte[] body) {
        JsonObject object;
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(body))) {
            object = reader.readObject();
        } catch (JsonException | IllegalStateException e) {
            throw new ApiException(ApiError.invalidRequest(null, "The body must be a JSON object such as"
                    + " {\"name\": \"billing-service\"}."));
        }
        if (!(object.get("name") instanceof JsonString name) || name.getString().isBlank()
                || name.getString().length() > MAX_NAME) {
            throw new ApiException(ApiError.invalidRequest("name", "'name' must be a non-empty string of at most "
                    + MAX_NAME + " characters."));
        }
        return name.getString().strip();
    }
}
