package io.aigw.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * An admin body nesting arrays and objects deeper than any admin request needs is refused with a
 * 400 before it is parsed, wherever the nesting is: in a member the service reads or one it ignores.
 */
public final class AdminBodyDepthTest {
    private static TestGateway gateway;
    private static KeysApi api;

    @BeforeAll
    static void start() {
        gateway = TestGateway.start(Map.of("gateway.access-log", "off"), Map.of());
        api = KeysApi.of(gateway);
    }

    @AfterAll
    static void stop() {
        gateway.close();
    }

    @Test
    void aKeyBodyNesting100000DeepInAnIgnoredMemberIsRefusedWith400() {
        HttpResponse<String> response = api.create("{\"name\":\"deep\",\"extra\":" + nested(100_000) + "}");

        assertRefused(response);
        assertTrue(api.listed().stream().noneMatch(key -> key.asJsonObject().getString("name").equals("deep")),
                "no key is made");
    }

    @Test
    void aPolicyChangeNestingDeepInModelsIsRefusedWith400() {
        String id = api.createKey("shallow").getString("id");

        HttpResponse<String> response = api.send(api.request("/admin/v1/keys/" + id, TestGateway.KEY)
                .header("Content-Type", "application/json")
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"models\":" + nested(100_000) + "}")));

        assertRefused(response);
        assertTrue(api.listed(id).isNull("models"), "the policy is unchanged");
    }

    @Test
    void nestingUpToTheBoundInAStringOrAMemberIsServed() {
        // Brackets inside a string are text; 32 levels (the object and 31 arrays) are within the bound.
        HttpResponse<String> response = api.create("{\"name\":\"[[[[{{{{" + "[".repeat(100) + "\",\"extra\":"
                + nested(31) + "}");

        assertEquals(201, response.statusCode(), response.body());
    }

    private static void assertRefused(HttpResponse<String> response) {
        assertEquals(400, response.statusCode(), response.body());
        JsonObject error = KeysApi.json(response.body()).getJsonObject("error");
        assertEquals("invalid_request_error", error.getString("type"));
        assertTrue(error.isNull("param"), response.body());
        assertTrue(error.getString("message").contains("more than 32 deep"), response.body());
    }

    private static String nested(int depth) {
        return "[".repeat(depth) + "]".repeat(depth);
    }
}
