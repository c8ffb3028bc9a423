package io.aigw.runtime.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.AnthropicUpstream;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Errors on {@code /anthropic/} in Anthropic's shape, {@code {"type":"error","error":{"type",
 * "message"},"request_id"}}, with the status and type each of Anthropic's SDK exceptions is raised
 * by; an Anthropic upstream's own error bodies pass through as they came.
 */
public final class MessagesErrorsTest {
    private static final Pattern RFC_3339 = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().forEveryProvider()
            .config("gateway.max-body-size", "4000");

    private HttpResponse<String> post(String key, String body) {
        return front.gateway().send(HttpRequest.newBuilder(front.gateway().uri("/anthropic/v1/messages"))
                .header("x-api-key", key).header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private static String body(String model) {
        return MessagesRelayTest.body(model, false);
    }

    /** Asserts the answer is an Anthropic error of {@code status} and {@code type}, and returns its message. */
    static String assertAnthropicError(HttpResponse<String> response, int status, String type) {
        assertEquals(status, response.statusCode(), response.body());
        JsonObject error = KeysApi.json(response.body());
        assertEquals("error", error.getString("type"), response.body());
        assertEquals(type, error.getJsonObject("error").getString("type"), response.body());
        // Anthropic's SDKs read an error's request_id from the request-id header, not from the body.
        String requestId = response.headers().firstValue("x-request-id").orElseThrow();
        assertEquals(requestId, error.getString("request_id"), response.body());
        assertEquals(List.of(requestId), response.headers().allValues("request-id"), response.headers().toString());
        return error.getJsonObject("error").getString("message");
    }

    @Test
    void aBodyWithoutMaxTokensIsAnInvalidRequestError() {
        String message = assertAnthropicError(post(TestGateway.KEY, "{\"model\":\"claude-sonnet-4-5\",\"messages\":"
                + "[{\"role\":\"user\",\"content\":\"Hi\"}]}"), 400, "invalid_request_error");
        assertTrue(message.contains("max_tokens"), message);
        assertEquals(0, front.upstream().getRequestCount());
    }

    @Test
    void anUnknownKeyIsAnAuthenticationError() {
        assertAnthropicError(post("sk-gw-not-a-key", body("claude-sonnet-4-5")), 401, "authentication_error");
    }

    @Test
    void aModelTheKeyMayNotUseIsAPermissionError() {
        String key = key("{\"name\":\"haiku only\",\"models\":[\"claude-haiku-*\"]}");

        assertAnthropicError(post(key, body("claude-sonnet-4-5")), 403, "permission_error");
        assertEquals(0, front.upstream().getRequestCount());
    }

    @Test
    void anAllowListWithTheProvidersPrefixHoldsForTheBareIdsClaudeCodeSends() {
        String key = key("{\"name\":\"sonnet\",\"models\":[\"anthropic/claude-sonnet-*\"]}");
        front.upstream().enqueue(AnthropicUpstream.message(AnthropicUpstream.MESSAGE));

        assertEquals(200, post(key, body("claude-sonnet-4-5-20250929")).statusCode());
        assertAnthropicError(post(key, body("claude-haiku-4-5")), 403, "permission_error");
        assertEquals(1, front.upstream().getRequestCount());
    }

    @Test
    void aPathTheGatewayDoesNotServeIsNotFound() {
        HttpResponse<String> response = front.gateway().send(HttpRequest.newBuilder(
                front.gateway().uri("/anthropic/v1/files")).header("x-api-key", TestGateway.KEY).GET().build());

        assertAnthropicError(response, 404, "not_found_error");
    }

    @Test
    void aBodyOverTheLimitIsRequestTooLarge() {
        String large = body("claude-sonnet-4-5").replace("Be brief.", "x".repeat(5000));

        assertAnthropicError(post(TestGateway.KEY, large), 413, "request_too_large");
    }

    @Test
    void aKeyOverItsRpmIsRateLimitedWithRetryAfterAndAnthropicsLimitHeaders() {
        String key = key("{\"name\":\"one a minute\",\"rpm\":1}");
        front.upstream().enqueue(AnthropicUpstream.message(AnthropicUpstream.MESSAGE));

        HttpResponse<String> first = post(key, body("claude-sonnet-4-5"));
        HttpResponse<String> second = post(key, body("claude-sonnet-4-5"));

        assertEquals(200, first.statusCode(), first.body());
        assertEquals("1", first.headers().firstValue("anthropic-ratelimit-requests-limit").orElseThrow());
        assertEquals("0", first.headers().firstValue("anthropic-ratelimit-requests-remaining").orElseThrow());
        assertTrue(first.headers().firstValue("anthropic-ratelimit-requests-reset").filter(reset ->
                RFC_3339.matcher(reset).matches()).isPresent(), first.headers().toString());
        assertTrue(first.headers().firstValue("x-ratelimit-limit-requests").isEmpty(),
                "the OpenAI SDKs' headers stay on the OpenAI surface");
        assertAnthropicError(second, 429, "rate_limit_error");
        assertTrue(Long.parseLong(second.headers().firstValue("retry-after").orElseThrow()) >= 1);
        assertEquals("0", second.headers().firstValue("anthropic-ratelimit-requests-remaining").orElseThrow());
        assertEquals(1, front.upstream().getRequestCount());
    }

    @ParameterizedTest(name = "{0} {1} passes through")
    @CsvSource({"400, invalid_request_error", "404, not_found_error", "429, rate_limit_error", "500, api_error",
            "529, overloaded_error"})
    void anAnthropicErrorPassesThroughAsItCame(int status, String type) {
        front.upstream().enqueue(AnthropicUpstream.error(status, type, "Upstream says " + type));

        HttpResponse<String> response = post(TestGateway.KEY, body("claude-sonnet-4-5"));

        assertEquals(status, response.statusCode());
        assertEquals(AnthropicUpstream.errorBody(type, "Upstream says " + type), response.body());
        assertEquals(List.of(AnthropicUpstream.REQUEST_ID), response.headers().allValues("request-id"),
                "the upstream's own id, not the gateway's beside it");
    }

    @Test
    void anAnswerTheUpstreamGaveNoIdCarriesTheGatewaysAndTheModelListToo() {
        front.upstream().enqueue(new MockResponse.Builder().addHeader("content-type", "application/json")
                .body(AnthropicUpstream.MESSAGE).build());

        HttpResponse<String> answered = post(TestGateway.KEY, body("claude-sonnet-4-5"));
        HttpResponse<String> models = front.gateway().send(HttpRequest.newBuilder(
                front.gateway().uri("/anthropic/v1/models")).header("x-api-key", TestGateway.KEY).GET().build());

        for (HttpResponse<String> response : List.of(answered, models)) {
            assertEquals(200, response.statusCode(), response.body());
            assertEquals(response.headers().allValues("x-request-id"), response.headers().allValues("request-id"));
        }
    }

    @Test
    void theOpenAiSurfaceSendsNoAnthropicRequestId() {
        HttpResponse<String> response = front.gateway().send(front.gateway().request("/api/v1/chat/completions")
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"openai/gpt-5\"}")).build());

        assertEquals(400, response.statusCode());
        assertTrue(response.headers().firstValue("request-id").isEmpty(), response.headers().toString());
    }

    @Test
    void anUnreachableUpstreamIsAnApiError() throws Exception {
        front.upstream().close();

        String message = assertAnthropicError(post(TestGateway.KEY, body("claude-sonnet-4-5")), 502, "api_error");
        assertTrue(message.contains("anthropic"), message);
    }

    @Test
    void anUpstreamThatRefusesTheGatewaysKeyIsAnApiErrorNotTheCallersAuthenticationError() {
        front.upstream().enqueue(AnthropicUpstream.error(401, "authentication_error", "invalid x-api-key"));

        assertAnthropicError(post(TestGateway.KEY, body("claude-sonnet-4-5")), 502, "api_error");
    }

    @Test
    void aModelOfAProviderWithoutTheMessagesApiIsAnInvalidRequestError() {
        String message = assertAnthropicError(post(TestGateway.KEY, body("openai/gpt-5")), 400,
                "invalid_request_error");

        assertTrue(message.contains("'openai'") && message.contains("/anthropic/v1/messages"), message);
        assertEquals(0, front.upstream().getRequestCount());
    }

    @Test
    void theChatSurfaceKeepsOpenAisShape() {
        HttpResponse<String> response = front.gateway().send(front.gateway().request("/api/v1/chat/completions")
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"openai/gpt-5\"}")).build());

        assertEquals(400, response.statusCode());
        assertEquals(Map.of("error", "invalid_request_error"), Map.of("error",
                KeysApi.json(response.body()).getJsonObject("error").getString("type")));
    }

    private String key(String policy) {
        HttpResponse<String> created = KeysApi.of(front.gateway()).create(policy);
        assertEquals(201, created.statusCode(), created.body());
        return KeysApi.json(created.body()).getString("key");
    }
}
