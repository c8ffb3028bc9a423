package io.aigw.runtime.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;

/** The key endpoints of one running gateway, called over HTTP with an admin key, as an operator would. */
public final class KeysApi {
    /** What every refused key gets, whatever was wrong with it. */
    public static final String UNAUTHORIZED = "{\"error\":{\"message\":\"Invalid or missing workspace key. Send"
            + " 'Authorization: Bearer sk-gw-...'.\",\"type\":\"authentication_error\",\"param\":null,"
            + "\"code\":\"invalid_api_key\"}}";
    /** What a valid key that is not an admin key gets from {@code /admin/*}. */
    public static final String FORBIDDEN = "{\"error\":{\"message\":\"This workspace key may not use the admin API;"
            + " use the master key.\",\"type\":\"permission_error\",\"param\":null,\"code\":\"insufficient_permissions\"}}";
    /** A key as the gateway makes them: the prefix and 32 random bytes in URL-safe base64. */
    public static final String KEY_PATTERN = "sk-gw-[A-Za-z0-9_-]{43}";

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final int port;
    private final String adminKey;

    public KeysApi(int port, String adminKey) {
        this.port = port;
        this.adminKey = adminKey;
    }

    /** The API of a test gateway, called with its master key. */
    public static KeysApi of(TestGateway gateway) {
        return new KeysApi(gateway.gateway().port(), TestGateway.KEY);
    }

    /** {@code POST /admin/v1/keys} with {@code body} as it is. */
    public HttpResponse<String> create(String body) {
        return send(request("/admin/v1/keys", adminKey).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    /** {@code POST /admin/v1/keys} with raw bytes, for bodies that are not text. */
    public HttpResponse<String> create(byte[] body) {
        return send(request("/admin/v1/keys", adminKey).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body)));
    }

    /** Creates a key named {@code name}, expecting 201, and returns the answer. */
    public JsonObject createKey(String name) {
        HttpResponse<String> response = create(Json.createObjectBuilder().add("name", name).build().toString());
        assertEquals(201, response.statusCode(), response.body());
        return json(response.body());
    }

    /** {@code GET /admin/v1/keys}. */
    public HttpResponse<String> list() {
        return send(request("/admin/v1/keys", adminKey).GET());
    }

    /** The {@code data} of {@code GET /admin/v1/keys}, expecting 200. */
    public JsonArray listed() {
        HttpResponse<String> response = list();
        assertEquals(200, response.statusCode(), response.body());
        return json(response.body()).getJsonArray("data");
    }

    /** The entry of the key list with {@code id}; fails when there is none. */
    public JsonObject listed(String id) {
        return listed().stream().map(value -> value.asJsonObject())
                .filter(entry -> entry.getString("id").equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no key " + id + " in the list"));
    }

    /** {@code DELETE /admin/v1/keys/{id}}. */
    public HttpResponse<String> revoke(String id) {
        return send(request("/admin/v1/keys/" + id, adminKey).DELETE());
    }

    /** {@code GET /api/v1/models} with {@code Authorization: Bearer key}. */
    public HttpResponse<String> models(String key) {
        return send(request("/api/v1/models", key).GET());
    }

    /** A request to {@code path} on this gateway carrying {@code Authorization: Bearer key}. */
    public HttpRequest.Builder request(String path, String key) {
        return HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + key);
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    public HttpResponse<String> send(HttpRequest.Builder request) {
        try {
            return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * A key as {@code GET /admin/v1/keys} lists it when it has no policy: {@code revokedAt} null
     * while it works.
     */
    public static JsonObject listedWithoutPolicy(String id, String name, boolean admin, long createdAt,
                                                 Long revokedAt) {
        var entry = Json.createObjectBuilder().add("id", id).add("name", name).add("admin", admin)
                .add("created_at", createdAt);
        if (revokedAt == null) {
            entry.addNull("revoked_at");
        } else {
            entry.add("revoked_at", revokedAt);
        }
        return entry.addNull("models").addNull("expires_at").addNull("rpm").addNull("tpm").addNull("budget_usd")
                .addNull("budget_period").addNull("spent_usd").addNull("remaining_usd").build();
    }

    /** The members of {@code POST /admin/v1/keys}'s answer, in their order. */
    public static final List<String> CREATED_MEMBERS = List.of("id", "name", "key", "admin",
            "created_at", "models", "expires_at", "rpm", "tpm", "budget_usd", "budget_period");

    public static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    /** The SHA-256 of a key in lower-case hex, computed here rather than by the gateway's own code. */
    public static String sha256Hex(String key) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(key.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
