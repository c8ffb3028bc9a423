package io.aigw.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A key's policies and admin right over the admin API: set by {@code POST}, shown by {@code GET},
 * changed by {@code PATCH} (a member sent sets, {@code null} clears, a member left out stays), and
 * each wrong value a 400 naming its member.
 */
public final class KeyPoliciesApiTest {
    private TestGateway gateway;
    private KeysApi api;

    @BeforeEach
    void start() {
        gateway = TestGateway.start(Map.of("gateway.access-log", "off"), Map.of());
        api = KeysApi.of(gateway);
    }

    @AfterEach
    void stop() {
        gateway.close();
    }

    @Test
    void policiesGivenAtCreationAreAnsweredListedAndShown() {
        HttpResponse<String> created = api.create("{\"name\":\"app\",\"models\":[\"openai/*\",\"gateway/auto\"],"
                + "\"expires_at\":4102444800,\"rpm\":60,\"tpm\":40000}");

        assertEquals(201, created.statusCode(), created.body());
        JsonObject answer = KeysApi.json(created.body());
        String id = answer.getString("id");
        JsonObject expected = Json.createObjectBuilder().add("id", id).add("name", "app").add("admin", false)
                .add("created_at", answer.getJsonNumber("created_at")).addNull("revoked_at")
                .add("models", Json.createArrayBuilder().add("openai/*").add("gateway/auto"))
                .add("expires_at", 4102444800L).add("rpm", 60).add("tpm", 40000).addNull("budget_usd")
                .addNull("budget_period").addNull("spent_usd").addNull("remaining_usd").build();
        assertEquals(expected, api.listed(id));
        HttpResponse<String> shown = api.send(api.request("/admin/v1/keys/" + id, TestGateway.KEY).GET());
        assertEquals(200, shown.statusCode());
        assertEquals(expected, KeysApi.json(shown.body()));
    }

    @Test
    void aPatchSetsWhatItSendsClearsWhatItSendsAsNullAndKeepsTheRest() {
        String id = KeysApi.json(api.create("{\"name\":\"app\",\"models\":[\"openai/*\"],\"rpm\":60,\"tpm\":40000}")
                .body()).getString("id");

        HttpResponse<String> patched = patch(id, "{\"rpm\":120,\"models\":null}");

        assertEquals(200, patched.statusCode(), patched.body());
        JsonObject listed = api.listed(id);
        assertEquals(KeysApi.json(patched.body()), listed);
        assertEquals(120, listed.getInt("rpm"));
        assertEquals(40000, listed.getInt("tpm"), "left out, so kept");
        assertEquals("null", listed.get("models").toString(), "null clears it: every model");
        assertEquals(404, patch("key_0000000000000000", "{\"rpm\":1}").statusCode());
    }

    @Test
    void aBudgetIsSetWithItsPeriodShownWithItsSpendAndRemainderAndClearedWithItsPeriod() {
        HttpResponse<String> created = api.create("{\"name\":\"app\",\"budget_usd\":20,\"budget_period\":\"month\"}");

        assertEquals(201, created.statusCode(), created.body());
        JsonObject answer = KeysApi.json(created.body());
        assertEquals("20", answer.get("budget_usd").toString());
        assertEquals("month", answer.getString("budget_period"));
        String id = answer.getString("id");
        HttpResponse<String> shown = api.send(api.request("/admin/v1/keys/" + id, TestGateway.KEY).GET());
        JsonObject key = KeysApi.json(shown.body());
        assertEquals("20", key.get("budget_usd").toString());
        assertEquals("0", key.get("spent_usd").toString(), shown.body());
        assertEquals("20", key.get("remaining_usd").toString(), shown.body());

        JsonObject lifetime = KeysApi.json(patch(id, "{\"budget_usd\":0.5,\"budget_period\":null}").body());
        assertEquals("0.5", lifetime.get("budget_usd").toString());
        assertEquals("null", lifetime.get("budget_period").toString(), "null: over the key's whole life");
        assertEquals("0.5", lifetime.get("remaining_usd").toString());

        JsonObject cleared = KeysApi.json(patch(id, "{\"budget_usd\":null}").body());
        assertEquals("null", cleared.get("budget_usd").toString());
        assertEquals("null", cleared.get("spent_usd").toString());
        HttpResponse<String> periodAlone = patch(id, "{\"budget_period\":\"day\"}");
        assertEquals(400, periodAlone.statusCode(), periodAlone.body());
        assertEquals("{\"error\":{\"message\":\"'budget_period' needs a 'budget_usd': this key has no budget.\","
                + "\"type\":\"invalid_request_error\",\"param\":\"budget_period\",\"code\":null}}", periodAlone.body());
    }

    @Test
    void anAdminKeyMadeOverTheApiMayUseTheAdminApiAndIsListedAsOne() {
        JsonObject admin = KeysApi.json(api.create("{\"name\":\"ops\",\"admin\":true}").body());
        JsonObject plain = KeysApi.json(api.create("{\"name\":\"app\",\"admin\":false}").body());

        assertEquals(true, admin.getBoolean("admin"));
        assertEquals(true, api.listed(admin.getString("id")).getBoolean("admin"));
        assertEquals(false, api.listed(plain.getString("id")).getBoolean("admin"));
        assertEquals(200, new KeysApi(gateway.gateway().port(), admin.getString("key")).list().statusCode());
        assertEquals(403, new KeysApi(gateway.gateway().port(), plain.getString("key")).list().statusCode());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "{\"name\":\"a\",\"rpm\":0}|rpm",
            "{\"name\":\"a\",\"rpm\":\"60\"}|rpm",
            "{\"name\":\"a\",\"tpm\":-5}|tpm",
            "{\"name\":\"a\",\"tpm\":1.5}|tpm",
            "{\"name\":\"a\",\"models\":[]}|models",
            "{\"name\":\"a\",\"models\":\"openai/*\"}|models",
            "{\"name\":\"a\",\"models\":[\"ok\",\"\"]}|models",
            "{\"name\":\"a\",\"models\":[\"two\\nlines\"]}|models",
            "{\"name\":\"a\",\"expires_at\":\"tomorrow\"}|expires_at",
            "{\"name\":\"a\",\"expires_at\":0}|expires_at",
            "{\"name\":\"a\",\"admin\":\"yes\"}|admin",
            "{\"name\":\"a\",\"budget_usd\":0}|budget_usd",
            "{\"name\":\"a\",\"budget_usd\":-1}|budget_usd",
            "{\"name\":\"a\",\"budget_usd\":\"20\"}|budget_usd",
            "{\"name\":\"a\",\"budget_usd\":2000000}|budget_usd",
            "{\"name\":\"a\",\"budget_usd\":1e-12}|budget_usd",
            "{\"name\":\"a\",\"budget_usd\":20,\"budget_period\":\"week\"}|budget_period",
            "{\"name\":\"a\",\"budget_period\":\"day\"}|budget_period"})
    void aWrongPolicyValueIsA400NamingItsMemberAndMakesNoKey(String body, String member) {
        HttpResponse<String> refused = api.create(body);

        assertEquals(400, refused.statusCode(), refused.body());
        JsonObject error = KeysApi.json(refused.body()).getJsonObject("error");
        assertEquals(member, error.getString("param"), refused.body());
        assertEquals("invalid_request_error", error.getString("type"));
        assertEquals(0, api.listed().size(), "no key was made: " + api.listed());
    }

    private HttpResponse<String> patch(String id, String body) {
        return api.send(api.request("/admin/v1/keys/" + id, TestGateway.KEY).header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString(body)));
    }
}
