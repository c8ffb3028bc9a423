package io.aigw.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.LocalPostgres;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Issue, list and revoke workspace keys over the admin API, on SQLite and on PostgreSQL. */
public final class KeyLifecycleTest {
    private static final String UNAUTHORIZED = "{\"error\":{\"message\":\"Invalid or missing workspace key. Send"
            + " 'Authorization: Bearer sk-gw-...'.\",\"type\":\"authentication_error\",\"param\":null,"
            + "\"code\":\"invalid_api_key\"}}";

    @Test
    void aKeyIsIssuedUsedListedAndRevokedOnSqlite() {
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of())) {
            lifecycle(gateway, gateway);
        }
    }

    @Test
    void aKeyIsIssuedUsedListedAndRevokedOnPostgres() throws Exception {
        try (LocalPostgres database = LocalPostgres.createDatabase();
             TestGateway gateway = TestGateway.start(postgres(database, "5s"), Map.of())) {
            lifecycle(gateway, gateway);
        }
    }

    @Test
    void twoReplicasOnOnePostgresShareKeysAndRevocations() throws Exception {
        try (LocalPostgres database = LocalPostgres.createDatabase();
             TestGateway first = TestGateway.start(postgres(database, "1s"), Map.of());
             TestGateway second = TestGateway.start(postgres(database, "1s"), Map.of())) {
            JsonObject created = create(first, "shared-app");
            String key = created.getString("key");
            assertEquals(200, models(second, key), "a key made on one replica must work on the other");

            assertEquals(204, first.send(first.request("/admin/v1/keys/" + created.getString("id")).DELETE().build())
                    .statusCode());
            assertEquals(401, models(first, key), "the replica that revoked it refuses it at once");
            long deadline = System.nanoTime() + 3_000_000_000L;
            int status = models(second, key);
            while (status == 200 && System.nanoTime() < deadline) {
                Thread.sleep(100);
                status = models(second, key);
            }
            assertEquals(401, status, "the other replica must refuse it within its 1 s key cache time");
        }
    }

    @ParameterizedTest(name = "body {0}")
    @ValueSource(strings = {"{}", "{\"name\":\"\"}", "{\"name\":\"   \"}", "{\"name\":42}", "{\"name\":null}",
            "[\"name\"]", "not json"})
    void aKeyNeedsAName(String body) {
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of())) {
            HttpResponse<String> response = gateway.send(gateway.request("/admin/v1/keys")
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build());

            assertEquals(400, response.statusCode(), response.body());
            JsonObject error = Json.createReader(new StringReader(response.body())).readObject().getJsonObject("error");
            assertEquals("invalid_request_error", error.getString("type"));
        }
    }

    @Test
    void aNameOfMoreThan200CharactersIsRefused() {
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of())) {
            HttpResponse<String> response = gateway.send(gateway.request("/admin/v1/keys")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + "n".repeat(201) + "\"}")).build());

            assertEquals(400, response.statusCode());
            assertTrue(response.body().contains("\"param\":\"name\""), response.body());
        }
    }

    private static void lifecycle(TestGateway admin, TestGateway user) {
        JsonObject created = create(admin, "billing-service");
        assertEquals(Set.of("id", "name", "key", "created_at"), created.keySet());
        String key = created.getString("key");
        assertTrue(key.matches("sk-gw-[A-Za-z0-9_-]{43}"), key);
        assertEquals("billing-service", created.getString("name"));

        assertEquals(200, models(user, key));
        HttpResponse<String> forbidden = user.send(HttpRequest.newBuilder(user.uri("/admin/v1/keys"))
                .header("Authorization", "Bearer " + key).build());
        assertEquals(403, forbidden.statusCode());
        assertEquals("{\"error\":{\"message\":\"This workspace key may not use the admin API; use the master key.\","
                + "\"type\":\"permission_error\",\"param\":null,\"code\":\"insufficient_permissions\"}}", forbidden.body());

        String list = admin.send(admin.request("/admin/v1/keys").build()).body();
        assertFalse(list.contains(key), "the list must never show a key");
        JsonObject listed = Json.createReader(new StringReader(list)).readObject().getJsonArray("data").stream()
                .map(value -> value.asJsonObject())
                .filter(entry -> entry.getString("id").equals(created.getString("id"))).findFirst().orElseThrow();
        assertEquals(Set.of("id", "name", "created_at", "revoked_at"), listed.keySet());
        assertTrue(listed.isNull("revoked_at"));

        assertEquals(204, admin.send(admin.request("/admin/v1/keys/" + created.getString("id")).DELETE().build())
                .statusCode());
        HttpResponse<String> refused = user.send(HttpRequest.newBuilder(user.uri("/api/v1/models"))
                .header("Authorization", "Bearer " + key).build());
        assertEquals(401, refused.statusCode());
        assertEquals(UNAUTHORIZED, refused.body(), "a revoked key gets the same answer as any wrong key");
        String afterRevoke = admin.send(admin.request("/admin/v1/keys").build()).body();
        assertTrue(afterRevoke.matches(".*\"id\":\"" + created.getString("id") + "\",\"name\":\"billing-service\","
                + "\"created_at\":\\d+,\"revoked_at\":\\d+.*"), afterRevoke);

        HttpResponse<String> unknown = admin.send(admin.request("/admin/v1/keys/key_0000000000000000").DELETE().build());
        assertEquals(404, unknown.statusCode());
        assertTrue(unknown.body().contains("\"code\":\"key_not_found\""), unknown.body());
    }

    private static JsonObject create(TestGateway gateway, String name) {
        HttpResponse<String> response = gateway.send(gateway.request("/admin/v1/keys")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + name + "\"}")).build());
        assertEquals(201, response.statusCode(), response.body());
        return Json.createReader(new StringReader(response.body())).readObject();
    }

    private static int models(TestGateway gateway, String key) {
        return gateway.send(HttpRequest.newBuilder(gateway.uri("/api/v1/models"))
                .header("Authorization", "Bearer " + key).build()).statusCode();
    }

    private static Map<String, String> postgres(LocalPostgres database, String cacheTime) {
        return Map.of("gateway.database.url", database.url(), "gateway.database.user", database.user(),
                "gateway.keys.cache-ttl", cacheTime);
    }
}
