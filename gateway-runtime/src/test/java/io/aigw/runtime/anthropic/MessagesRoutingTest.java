package io.aigw.runtime.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.AnthropicUpstream;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Where a Messages request goes, and with which key: a bare id (what Claude Code sends) to the
 * Messages API's home, anthropic, with {@code x-api-key}; a prefixed id to its provider, OpenRouter's
 * Anthropic-compatible API with {@code Authorization: Bearer}, as OpenRouter documents; the
 * caller's own credentials to neither.
 */
public final class MessagesRoutingTest {
    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().forEveryProvider();

    @ParameterizedTest(name = "{0} reaches {1} as {2}")
    @CsvSource({
            "claude-sonnet-4-5-20250929, anthropic, claude-sonnet-4-5-20250929, x-api-key",
            "anthropic/claude-sonnet-4-5, anthropic, claude-sonnet-4-5, x-api-key",
            // OpenRouter takes ids unchanged, its prefix included, on every API (stripsPrefix false).
            "openrouter/anthropic/claude-sonnet-4.5, openrouter, openrouter/anthropic/claude-sonnet-4.5, Authorization"})
    void eachModelReachesItsProviderWithTheKeyAsItTakesIt(String model, String provider, String upstreamModel,
                                                         String keyHeader) throws Exception {
        front.upstream().enqueue(AnthropicUpstream.message(AnthropicUpstream.MESSAGE));

        HttpResponse<String> response = front.gateway().send(HttpRequest.newBuilder(
                        front.gateway().uri("/anthropic/v1/messages"))
                .header("Authorization", "Bearer " + TestGateway.KEY)
                .header("anthropic-beta", "interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14")
                .header("anthropic-dangerous-direct-browser-access", "true")
                .header("Cookie", "session=caller-secret")
                .POST(HttpRequest.BodyPublishers.ofString(MessagesRelayTest.body(model, false))).build());

        assertEquals(200, response.statusCode(), response.body());
        assertEquals(provider, response.headers().firstValue("X-Gateway-Provider").orElseThrow());
        RecordedRequest received = front.upstream().takeRequest(5, TimeUnit.SECONDS);
        assertEquals("POST /" + provider + "/v1/messages HTTP/1.1", received.getRequestLine());
        assertEquals(MessagesRelayTest.body(upstreamModel, false), received.getBody().utf8());
        String key = "sk-upstream-" + provider;
        assertEquals(keyHeader.equals("x-api-key") ? key : "Bearer " + key, received.getHeaders().get(keyHeader));
        assertNull(received.getHeaders().get(keyHeader.equals("x-api-key") ? "Authorization" : "x-api-key"));
        assertEquals("2023-06-01", received.getHeaders().get("anthropic-version"), "added: the API requires one");
        assertEquals("interleaved-thinking-2025-05-14,fine-grained-tool-streaming-2025-05-14",
                received.getHeaders().get("anthropic-beta"));
        assertEquals("true", received.getHeaders().get("anthropic-dangerous-direct-browser-access"));
        assertNull(received.getHeaders().get("Cookie"));
    }

    @Test
    void countTokensIsForwardedUnderTheMessagesApi() throws Exception {
        front.upstream().enqueue(AnthropicUpstream.message("{\"input_tokens\":2095}"));
        String body = "{\"model\":\"claude-sonnet-4-5\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}],"
                + "\"tools\":[]}";

        HttpResponse<String> response = front.gateway().send(HttpRequest.newBuilder(
                        front.gateway().uri("/anthropic/v1/messages/count_tokens"))
                .header("x-api-key", TestGateway.KEY).header("anthropic-version", "2023-06-01")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());

        assertEquals(200, response.statusCode(), response.body());
        assertEquals("{\"input_tokens\":2095}", response.body());
        RecordedRequest received = front.upstream().takeRequest(5, TimeUnit.SECONDS);
        assertEquals("POST /anthropic/v1/messages/count_tokens HTTP/1.1", received.getRequestLine());
        assertEquals(body, received.getBody().utf8());
        assertEquals("sk-upstream-anthropic", received.getHeaders().get("x-api-key"));
    }

    @Test
    void theModelListHoldsTheModelsOfTheProvidersThatServeMessagesAsARequestNamesThem() {
        HttpResponse<String> response = front.gateway().send(HttpRequest.newBuilder(
                front.gateway().uri("/anthropic/v1/models")).header("x-api-key", TestGateway.KEY).GET().build());

        assertEquals(200, response.statusCode(), response.body());
        JsonObject list = KeysApi.json(response.body());
        List<String> ids = list.getJsonArray("data").stream().map(model -> model.asJsonObject().getString("id"))
                .toList();
        assertTrue(ids.contains("claude-sonnet-4-5"), ids.toString());
        assertTrue(ids.stream().noneMatch(id -> id.startsWith("openai/") || id.startsWith("gemini/")), ids.toString());
        JsonObject sonnet = list.getJsonArray("data").stream().map(model -> model.asJsonObject())
                .filter(model -> model.getString("id").equals("claude-sonnet-4-5")).findFirst().orElseThrow();
        assertEquals("model", sonnet.getString("type"));
        assertEquals("Claude Sonnet 4.5", sonnet.getString("display_name"));
        assertTrue(sonnet.getString("created_at").matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ"));
        assertEquals(false, list.getBoolean("has_more"));
        assertEquals(ids.get(0), list.getString("first_id"));
        assertEquals(ids.get(ids.size() - 1), list.getString("last_id"));
    }

    @Test
    void aKeyWithAnAllowListSeesOnlyTheModelsItMayUse() {
        HttpResponse<String> created = KeysApi.of(front.gateway()).create("{\"name\":\"sonnet\",\"models\":"
                + "[\"claude-sonnet-4-5\"]}");
        String key = KeysApi.json(created.body()).getString("key");

        HttpResponse<String> response = front.gateway().send(HttpRequest.newBuilder(
                front.gateway().uri("/anthropic/v1/models")).header("x-api-key", key).GET().build());

        assertEquals(200, response.statusCode(), response.body());
        assertEquals("{\"data\":[{\"type\":\"model\",\"id\":\"claude-sonnet-4-5\",\"display_name\":\"Claude Sonnet"
                + " 4.5\",\"created_at\":\"" + KeysApi.json(response.body()).getJsonArray("data").getJsonObject(0)
                .getString("created_at") + "\"}],\"has_more\":false,\"first_id\":\"claude-sonnet-4-5\","
                + "\"last_id\":\"claude-sonnet-4-5\"}", response.body());
    }
}
