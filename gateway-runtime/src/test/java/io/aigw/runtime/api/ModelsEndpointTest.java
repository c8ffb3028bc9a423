package io.aigw.runtime.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code GET /api/v1/models} and the key check in front of both endpoints. */
public final class ModelsEndpointTest {
    private static final String UNAUTHORIZED = "{\"error\":{\"message\":\"Invalid or missing workspace key. Send"
            + " 'Authorization: Bearer sk-gw-...'.\",\"type\":\"authentication_error\",\"param\":null,"
            + "\"code\":\"invalid_api_key\"}}";

    @ParameterizedTest(name = "Authorization: {0}")
    @ValueSource(strings = {"", "Basic dXNlcjpwYXNz", "Bearer sk-live-not-a-gateway-key-0000000000",
            "Bearer sk-gw-unknown-key-000000000000000", "Bearer"})
    void bothEndpointsRefuseAMissingOrWrongKeyWithTheSameBody(String authorization) {
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of())) {
            for (HttpRequest.Builder request : List.of(
                    HttpRequest.newBuilder(gateway.uri("/api/v1/models")),
                    HttpRequest.newBuilder(gateway.uri("/api/v1/chat/completions")).header("Content-Type",
                            "application/json").POST(HttpRequest.BodyPublishers.ofString(
                            "{\"model\":\"openai/gpt-5\",\"messages\":[]}")))) {
                if (!authorization.isEmpty()) {
                    request.header("Authorization", authorization);
                }
                HttpResponse<String> response = gateway.send(request.build());

                assertEquals(401, response.statusCode());
                assertEquals(UNAUTHORIZED, response.body());
            }
        }
    }

    @Test
    void theListStartsWithAutoThenEveryCatalogueByPriorityWithExactlyFourFields() {
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of())) {
            HttpResponse<String> response = gateway.send(gateway.request("/api/v1/models").build());

            assertEquals(200, response.statusCode());
            assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
            JsonObject body = Json.createReader(new StringReader(response.body())).readObject();
            assertEquals(Set.of("data"), body.keySet());
            JsonArray data = body.getJsonArray("data");
            JsonObject auto = data.getJsonObject(0);
            assertEquals("gateway/auto", auto.getString("id"));
            assertEquals("Auto: the first available provider's default model", auto.getString("name"));
            assertEquals("aigw", auto.getString("owned_by"));
            for (JsonValue value : data) {
                JsonObject model = value.asJsonObject();
                assertEquals(Set.of("id", "name", "context_length", "owned_by"), model.keySet(), model.toString());
                assertEquals(JsonValue.ValueType.NUMBER, model.get("context_length").getValueType());
                assertTrue(model.getJsonNumber("context_length").isIntegral());
            }
            List<String> prefixes = data.stream().map(value -> value.asJsonObject().getString("id"))
                    .map(id -> id.substring(0, id.indexOf('/'))).distinct().toList();
            assertEquals(List.of("gateway", "openai", "gemini", "anthropic", "xai", "openrouter", "acme"), prefixes);
            assertTrue(response.body().contains("{\"id\":\"openai/gpt-5\",\"name\":\"GPT-5\",\"context_length\":400000,"
                    + "\"owned_by\":\"openai\"}"));
            assertEquals(1, count(response.body(), "\"openrouter/auto\""));
            assertFalse(response.body().contains("openrouter/openrouter"));
            List<String> ids = data.stream().map(value -> value.asJsonObject().getString("id")).toList();
            assertEquals(ids.size(), Set.copyOf(ids).size(), "an id listed twice: " + ids);
        }
    }

    @Test
    void priorityPrefixAndNameSettingsShowInTheList() {
        try (TestGateway gateway = TestGateway.start(Map.of(
                "providers.xai.priority", "0",
                "providers.anthropic.prefix", "claude",
                "gateway.name", "acme-corp-gateway"), Map.of())) {
            JsonArray data = Json.createReader(new StringReader(
                    gateway.send(gateway.request("/api/v1/models").build()).body())).readObject().getJsonArray("data");

            assertEquals("acme-corp-gateway", data.getJsonObject(0).getString("owned_by"));
            List<String> prefixes = data.stream().map(value -> value.asJsonObject().getString("id"))
                    .map(id -> id.substring(0, id.indexOf('/'))).distinct().toList();
            assertEquals(List.of("gateway", "xai", "openai", "gemini", "claude", "openrouter", "acme"), prefixes);
            assertEquals("{\"id\":\"claude/claude-sonnet-4-5\",\"name\":\"Claude Sonnet 4.5\",\"context_length\":200000,"
                    + "\"owned_by\":\"anthropic\"}", data.stream().map(JsonValue::toString)
                    .filter(model -> model.contains("claude-sonnet-4-5")).findFirst().orElseThrow());
        }
    }

    @Test
    void aCatchAllModelWhosePrefixAnotherProviderClaimsIsLeftOutAsItWouldNotReachTheCatchAll() {
        try (TestGateway gateway = TestGateway.start(Map.of(
                "providers.openrouter.models.0.id", "anthropic/claude-sonnet-4-5",
                "providers.openrouter.models.0.context-length", "200000",
                "providers.openrouter.models.1.id", "meta-llama/llama-3-8b",
                "providers.openrouter.models.1.name", "Llama 3 8B",
                "providers.openrouter.models.1.context-length", "8192",
                "providers.openrouter.models.1.owned-by", "meta-llama"), Map.of())) {
            String body = gateway.send(gateway.request("/api/v1/models").build()).body();

            // anthropic/claude-sonnet-4-5 goes to the anthropic provider: listed once, as its model.
            assertEquals(1, count(body, "\"anthropic/claude-sonnet-4-5\""), body);
            assertTrue(body.contains("{\"id\":\"anthropic/claude-sonnet-4-5\",\"name\":\"Claude Sonnet 4.5\","
                    + "\"context_length\":200000,\"owned_by\":\"anthropic\"}"), body);
            assertTrue(body.contains("{\"id\":\"meta-llama/llama-3-8b\",\"name\":\"Llama 3 8B\",\"context_length\":8192,"
                    + "\"owned_by\":\"meta-llama\"}"), body);
        }
    }

    @Test
    void configurationAddsAndOverridesCatalogueEntriesAndCanSwitchAProviderOff() {
        try (TestGateway gateway = TestGateway.start(Map.of(
                "providers.openai.models.0.id", "gpt-5",
                "providers.openai.models.0.name", "GPT-5 (our deployment)",
                "providers.openai.models.0.context-length", "272000",
                "providers.openai.models.1.id", "ft:gpt-4o:acme:2026",
                "providers.openai.models.1.name", "Our fine-tune",
                "providers.openai.models.1.context-length", "128000",
                "providers.openai.models.1.owned-by", "acme",
                "providers.xai.enabled", "false"), Map.of())) {
            String body = gateway.send(gateway.request("/api/v1/models").build()).body();

            assertTrue(body.contains("{\"id\":\"openai/gpt-5\",\"name\":\"GPT-5 (our deployment)\","
                    + "\"context_length\":272000,\"owned_by\":\"openai\"}"), body);
            assertEquals(1, count(body, "\"openai/gpt-5\""));
            assertTrue(body.contains("{\"id\":\"openai/ft:gpt-4o:acme:2026\",\"name\":\"Our fine-tune\","
                    + "\"context_length\":128000,\"owned_by\":\"acme\"}"), body);
            assertFalse(body.contains("xai/"), body);
        }
    }

    @Test
    void aConfiguredModelWhoseContextLengthIsNoNumberRefusesToStartNamingTheEntry() {
        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> TestGateway.start(Map.of(
                "providers.openai.models.0.id", "gpt-5-custom",
                "providers.openai.models.0.context-length", "400k"), Map.of()));

        assertEquals("The 'context-length' of the entry 'gpt-5-custom' of providers.openai.models must be a whole"
                + " number of tokens.", refused.getMessage());
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }
}
