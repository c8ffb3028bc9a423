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
import jakarta.json.JsonObjectBuilder;
import jakarta.json.stream.JsonParser;
import jakarta.json.stream.JsonParser.Event;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * {@code /admin/v1/keys}: issue ({@code POST}), list ({@code GET}) and revoke ({@code DELETE /{id}})
 * workspace keys. Only admin keys get here (see the auth filter). A key's text appears once, in
 * the answer that creates it.
 */
public final class AdminKeysService implements HttpService {
    private static final String NOT_AN_OBJECT = "The body must be a JSON object such as {\"name\": \"billing-service\"}.";

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
        // A POST without a body has no entity at all, and asking it for bytes throws.
        String name = nameFrom(request.content().hasEntity() ? request.content().as(byte[].class) : new byte[0]);
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

    /**
     * Reads {@code name} from a body that must be exactly one JSON object in UTF-8, with no field
     * twice: the same rules as a chat request, so {@code {"name":"a"} junk} or
     * {@code {"name":"a","name":"b"}} is refused rather than half read. Other fields are ignored.
     */
    static String nameFrom(byte[] body) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            throw new ApiException(ApiError.invalidRequest(null, NOT_AN_OBJECT));
        }
        String name = null;
        Set<String> fields = new HashSet<>();
        try (JsonParser parser = Json.createParser(new StringReader(text))) {
            if (!parser.hasNext() || parser.next() != Event.START_OBJECT) {
                throw new ApiException(ApiError.invalidRequest(null, NOT_AN_OBJECT));
            }
            for (Event event = parser.next(); event != Event.END_OBJECT; event = parser.next()) {
                String field = parser.getString();
                if (!fields.add(field)) {
                    throw new ApiException(ApiError.invalidRequest(field, "The field '" + field
                            + "' appears more than once."));
                }
                Event value = parser.next();
                if (field.equals("name") && value == Event.VALUE_STRING) {
                    name = parser.getString();
                } else if (value == Event.START_OBJECT) {
                    parser.skipObject();
                } else if (value == Event.START_ARRAY) {
                    parser.skipArray();
                }
            }
            if (parser.hasNext()) {
                parser.next();
                throw new ApiException(ApiError.invalidRequest(null, NOT_AN_OBJECT));
            }
        } catch (JsonException | NoSuchElementException | IllegalStateException e) {
            throw new ApiException(ApiError.invalidRequest(null, NOT_AN_OBJECT));
        }
        String stripped = name == null ? "" : name.strip();
        if (!KeyIssuer.isValidName(stripped)) {
            throw new ApiException(ApiError.invalidRequest("name", "'name' must be a non-empty string of at most "
                    + KeyIssuer.MAX_NAME + " characters, without control characters."));
        }
        return stripped;
    }
}
