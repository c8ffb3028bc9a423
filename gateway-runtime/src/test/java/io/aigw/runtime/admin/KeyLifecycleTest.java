package io.aigw.runtime.admin;

import static io.aigw.runtime.testing.KeysApi.FORBIDDEN;
import static io.aigw.runtime.testing.KeysApi.KEY_PATTERN;
import static io.aigw.runtime.testing.KeysApi.UNAUTHORIZED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.KeyRows;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue, use, list and revoke workspace keys over the admin API on the default store, SQLite. The
 * key cache time is an hour here, so a revoked key that stops working did so because the gateway
 * that revoked it forgot its cached answer, not because the cache ran out.
 */
public final class KeyLifecycleTest {
    private static final String BAD_NAME = "{\"error\":{\"message\":\"'name' must be a non-empty string of at most"
            + " 200 characters, without control or bidirectional formatting characters.\",\"type\":\"invalid_request_error\",\"param\":\"name\","
            + "\"code\":null}}";
    private static final String NOT_AN_OBJECT = "{\"error\":{\"message\":\"The body must be a JSON object such as"
            + " {\\\"name\\\": \\\"billing-service\\\"}.\",\"type\":\"invalid_request_error\",\"param\":null,"
            + "\"code\":null}}";

    private TestGateway gateway;
    private KeysApi api;

    @BeforeEach
    void start() {
        gateway = TestGateway.start(Map.of("gateway.keys.cache-ttl", "1h", "gateway.access-log", "off"), Map.of());
        api = KeysApi.of(gateway);
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    @Test
    void aKeyIsIssuedWorksIsListedWithoutItsTextAndStopsWorkingTheMomentItIsRevoked() throws Exception {
        long before = System.currentTimeMillis() / 1000;
        HttpResponse<String> createdResponse = api.create("{\"name\":\"billing-service\"}");
        long after = System.currentTimeMillis() / 1000;

        assertEquals(201, createdResponse.statusCode(), createdResponse.body());
        assertEquals(Optional.of("application/json"), createdResponse.headers().firstValue("Content-Type"));
        JsonObject created = KeysApi.json(createdResponse.body());
        assertEquals(KeysApi.CREATED_MEMBERS, List.copyOf(created.keySet()));
        String id = created.getString("id");
        String key = created.getString("key");
        long createdAt = created.getJsonNumber("created_at").longValueExact();
        assertTrue(id.matches("key_[0-9a-f]{16}"), id);
        assertEquals("billing-service", created.getString("name"));
        assertTrue(key.matches(KEY_PATTERN), key);
        assertTrue(createdAt >= before && createdAt <= after, createdAt + " not in [" + before + ", " + after + "]");

        HttpResponse<String> models = api.models(key);
        assertEquals(200, models.statusCode(), models.body());
        assertEquals(api.models(TestGateway.KEY).body(), models.body(), "the new key sees what the master key sees");

        HttpResponse<String> list = api.list();
        assertEquals(200, list.statusCode());
        assertFalse(list.body().contains(key.substring("sk-gw-".length())), "the list must never show a key");
        assertEquals(KeysApi.listedWithoutPolicy(id, "billing-service", false, createdAt, null), api.listed(id));
        assertEquals(Set.of("data"), KeysApi.json(list.body()).keySet());

        KeyRows row = KeyRows.byId(KeyRows.read(gateway.databaseUrl()), id);
        assertEquals(new KeyRows(id, "billing-service", KeysApi.sha256Hex(key), false, row.createdAt(),
                Optional.empty()), row);
        assertEquals(createdAt, row.createdAt() / 1000, "created_at is stored in ms, shown in seconds");

        HttpResponse<String> revoked = api.revoke(id);
        assertEquals(204, revoked.statusCode(), revoked.body());
        assertEquals("", revoked.body());

        HttpResponse<String> refused = api.models(key);
        assertEquals(401, refused.statusCode(), "refused at once although the key cache time is an hour");
        assertEquals(UNAUTHORIZED, refused.body());

        JsonObject listedRevoked = api.listed(id);
        long revokedAt = listedRevoked.getJsonNumber("revoked_at").longValueExact();
        assertTrue(revokedAt >= createdAt && revokedAt <= System.currentTimeMillis() / 1000, listedRevoked.toString());
        assertEquals(KeysApi.listedWithoutPolicy(id, "billing-service", false, createdAt, revokedAt), listedRevoked);
        Optional<Long> storedRevokedAt = KeyRows.byId(KeyRows.read(gateway.databaseUrl()), id).revokedAt();
        assertEquals(Optional.of(revokedAt), storedRevokedAt.map(ms -> ms / 1000));

        Thread.sleep(5);
        assertEquals(204, api.revoke(id).statusCode(), "revoking twice is harmless");
        assertEquals(storedRevokedAt, KeyRows.byId(KeyRows.read(gateway.databaseUrl()), id).revokedAt(),
                "and keeps the time of the first revocation");
        assertEquals(401, api.models(key).statusCode());
    }

    @Test
    void revokingAnIdNoKeyHasAnswers404KeyNotFound() throws Exception {
        HttpResponse<String> response = api.revoke("key_0000000000000000");

        assertEquals(404, response.statusCode());
        assertEquals("{\"error\":{\"message\":\"No workspace key has the id 'key_0000000000000000'.\","
                + "\"type\":\"invalid_request_error\",\"param\":\"id\",\"code\":\"key_not_found\"}}", response.body());
        assertEquals(404, api.revoke("master").statusCode(), "the master key lives in configuration, not the store");
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"{}", "{\"name\":\"\"}", "{\"name\":\"   \"}", "{\"name\":\"\\t\\n\"}", "{\"name\":42}",
            "{\"name\":null}", "{\"name\":true}", "{\"name\":[\"billing\"]}", "{\"name\":{\"first\":\"billing\"}}",
            "{\"nome\":\"billing\"}", "{\"name\":\"bill\\u0000ing\"}", "{\"name\":\"two\\nlines\"}",
            "{\"name\":\"half a pair \\ud83d\"}", "{\"name\":\"del\\u007f\"}", "{\"name\":\"c1\\u0085x\"}",
            "{\"name\":\"x\\u202egnp.exe\"}", "{\"name\":\"iso\\u2066late\"}", "NAME_OF_201_CHARACTERS"})
    void aMissingBlankOrMistypedNameIsRefusedWith400NamingTheParameter(String body) throws Exception {
        String sent = body.equals("NAME_OF_201_CHARACTERS") ? "{\"name\":\"" + "n".repeat(201) + "\"}" : body;

        HttpResponse<String> response = api.create(sent);

        assertEquals(400, response.statusCode(), response.body());
        assertEquals(BAD_NAME, response.body());
        assertEquals(List.of(), KeyRows.read(gateway.databaseUrl()), "nothing is stored");
    }

    static Stream<Arguments> bodiesThatAreNotOneJsonObject() {
        return Stream.of(
                Arguments.of("not JSON", "billing-service".getBytes(StandardCharsets.UTF_8)),
                Arguments.of("no body", new byte[0]),
                Arguments.of("white space", " \n".getBytes(StandardCharsets.UTF_8)),
                Arguments.of("an array", "[{\"name\":\"billing\"}]".getBytes(StandardCharsets.UTF_8)),
                Arguments.of("a string", "\"billing\"".getBytes(StandardCharsets.UTF_8)),
                Arguments.of("null", "null".getBytes(StandardCharsets.UTF_8)),
                Arguments.of("cut short", "{\"name\":\"billing".getBytes(StandardCharsets.UTF_8)),
                Arguments.of("junk after the object", "{\"name\":\"billing\"} junk".getBytes(StandardCharsets.UTF_8)),
                Arguments.of("two objects", "{\"name\":\"a\"}{\"name\":\"b\"}".getBytes(StandardCharsets.UTF_8)),
                Arguments.of("invalid UTF-8", new byte[] {'{', '"', 'n', 'a', 'm', 'e', '"', ':', '"', (byte) 0xC3,
                        '"', '}'}));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("bodiesThatAreNotOneJsonObject")
    void aBodyThatIsNotOneJsonObjectIsRefusedWith400ForTheWholeBody(String what, byte[] body) throws Exception {
        HttpResponse<String> response = api.create(body);

        assertEquals(400, response.statusCode(), response.body());
        assertEquals(NOT_AN_OBJECT, response.body());
        assertEquals(List.of(), KeyRows.read(gateway.databaseUrl()), "nothing is stored");
    }

    @Test
    void aNameGivenTwiceIsRefusedRatherThanOneOfThemPicked() throws Exception {
        HttpResponse<String> response = api.create("{\"name\":\"billing\",\"name\":\"payroll\"}");

        assertEquals(400, response.statusCode());
        assertEquals("{\"error\":{\"message\":\"The field 'name' appears more than once.\","
                + "\"type\":\"invalid_request_error\",\"param\":\"name\",\"code\":null}}", response.body());
        assertEquals(List.of(), KeyRows.read(gateway.databaseUrl()));
    }

    @Test
    void theCreateAndListAnswersAreTheDocumentedMembersInTheirOrderWithRevokedAtNullWhileTheKeyWorks()
            throws Exception {
        HttpResponse<String> created = api.create("{\"name\":\"ops \\\"blue\\\" caf\\u00e9\"}");

        assertEquals(201, created.statusCode(), created.body());
        JsonObject answer = KeysApi.json(created.body());
        String id = answer.getString("id");
        long createdAt = answer.getJsonNumber("created_at").longValueExact();
        String noPolicy = ",\"models\":null,\"expires_at\":null,\"rpm\":null,\"tpm\":null,\"budget_usd\":null,"
                + "\"budget_period\":null";
        String noSpend = ",\"spent_usd\":null,\"remaining_usd\":null}";
        assertEquals("{\"id\":\"" + id + "\",\"name\":\"ops \\\"blue\\\" caf\u00e9\",\"key\":\""
                + answer.getString("key") + "\",\"admin\":false,\"created_at\":" + createdAt + noPolicy + "}",
                created.body());
        String listedWorking = "{\"id\":\"" + id + "\",\"name\":\"ops \\\"blue\\\" caf\u00e9\",\"admin\":false,"
                + "\"created_at\":" + createdAt + ",\"revoked_at\":";
        assertEquals("{\"data\":[" + listedWorking + "null" + noPolicy + noSpend + "]}", api.list().body());

        assertEquals(204, api.revoke(id).statusCode());

        long revokedAt = api.listed(id).getJsonNumber("revoked_at").longValueExact();
        assertEquals("{\"data\":[" + listedWorking + revokedAt + noPolicy + noSpend + "]}", api.list().body());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"{\"team\":\"a\",\"name\":\"ops\",\"team\":\"b\"}",
            "{\"team\":{\"id\":1},\"team\":[],\"name\":\"ops\"}"})
    void anyFieldGivenTwiceIsRefusedNamingItEvenOneTheGatewayIgnores(String body) throws Exception {
        HttpResponse<String> response = api.create(body);

        assertEquals(400, response.statusCode());
        assertEquals("{\"error\":{\"message\":\"The field 'team' appears more than once.\","
                + "\"type\":\"invalid_request_error\",\"param\":\"team\",\"code\":null}}", response.body());
        assertEquals(List.of(), KeyRows.read(gateway.databaseUrl()));
    }

    @Test
    void namesUpTo200CharactersAreKeptWithoutSurroundingBlanksAndOtherFieldsAreIgnored() throws Exception {
        List<String> ids = new ArrayList<>();
        Map<String, String> sentAndKept = Map.of(
                "n".repeat(200), "n".repeat(200),
                "\uD83D\uDD11".repeat(200), "\uD83D\uDD11".repeat(200),  // 200 characters, 400 UTF-16 units
                "  billing service\t", "billing service",
                "Fakturierung für Ärzte", "Fakturierung für Ärzte");
        for (Map.Entry<String, String> name : sentAndKept.entrySet()) {
            JsonObject created = api.createKey(name.getKey());
            assertEquals(name.getValue(), created.getString("name"));
            assertEquals(name.getValue(), api.listed(created.getString("id")).getString("name"));
            assertEquals(name.getValue(), KeyRows.byId(KeyRows.read(gateway.databaseUrl()),
                    created.getString("id")).name());
            ids.add(created.getString("id"));
        }
        HttpResponse<String> withMore = api.create("{\"team\":{\"cost-centre\":[1,{\"x\":null}]},\"name\":\"ops\","
                + "\"tags\":[\"a\",[\"b\"]]}");
        assertEquals(201, withMore.statusCode(), withMore.body());
        assertEquals("ops", KeysApi.json(withMore.body()).getString("name"));
        assertEquals(5, KeyRows.read(gateway.databaseUrl()).size());
    }

    @Test
    void aKeyThatIsNotAnAdminKeyGets403FromEveryAdminEndpointAndChangesNothing() throws Exception {
        JsonObject created = api.createKey("app");
        String key = created.getString("key");
        String id = created.getString("id");
        List<KeyRows> before = KeyRows.read(gateway.databaseUrl());

        List<HttpRequest.Builder> adminCalls = List.of(
                api.request("/admin/v1/keys", key).GET(),
                api.request("/admin/v1/keys", key).POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"mine\"}")),
                api.request("/admin/v1/keys/" + id, key).DELETE(),
                api.request("/admin/v1/usage", key).GET());
        for (HttpRequest.Builder call : adminCalls) {
            HttpResponse<String> response = api.send(call);
            assertEquals(403, response.statusCode(), call.build().method() + " " + call.build().uri());
            assertEquals(FORBIDDEN, response.body());
        }

        assertEquals(before, KeyRows.read(gateway.databaseUrl()), "no key made, none revoked");
        assertEquals(200, api.models(key).statusCode(), "the key still works where it may");
    }

    @Test
    void every401IsByteForByteTheSameWhateverWasWrongWithTheKey() throws Exception {
        JsonObject revokedKey = api.createKey("revoked");
        assertEquals(200, api.models(revokedKey.getString("key")).statusCode());
        assertEquals(204, api.revoke(revokedKey.getString("id")).statusCode());
        String valid = api.createKey("valid").getString("key");

        Map<String, UnaryOperator<HttpRequest.Builder>> wrongs = Map.of(
                "no Authorization header", request -> request,
                "another scheme", request -> request.header("Authorization", "Basic " + TestGateway.KEY),
                "Bearer and nothing", request -> request.header("Authorization", "Bearer"),
                "a key without the sk-gw- prefix", request -> request.header("Authorization",
                        "Bearer sk-live-0123456789abcdef0123456789abcdef"),
                "an unknown key", request -> request.header("Authorization",
                        "Bearer sk-gw-AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
                "a revoked key", request -> request.header("Authorization", "Bearer " + revokedKey.getString("key")),
                "two Authorization headers", request -> request.header("Authorization", "Bearer " + valid)
                        .header("Authorization", "Bearer " + valid));
        for (String path : List.of("/api/v1/models", "/admin/v1/keys")) {
            for (Map.Entry<String, UnaryOperator<HttpRequest.Builder>> wrong : wrongs.entrySet()) {
                HttpResponse<String> response = api.send(wrong.getValue().apply(
                        HttpRequest.newBuilder(api.uri(path)).GET()));
                assertEquals(401, response.statusCode(), wrong.getKey() + " on " + path);
                assertEquals(UNAUTHORIZED, response.body(), wrong.getKey() + " on " + path);
                assertEquals(Optional.of("application/json"), response.headers().firstValue("Content-Type"));
            }
        }
    }
}
