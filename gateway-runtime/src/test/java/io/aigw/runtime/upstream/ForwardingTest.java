package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.TestGateway;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** What reaches each upstream, to the byte, and what comes back to the caller. */
public final class ForwardingTest {
    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().forEveryProvider();
    /** Unknown fields, nested objects, exact number texts, escapes and non-ASCII, in an odd order. */
    private static final String BODY_TEMPLATE = "{ \"temperature\": 1.50, \"messages\": [{\"role\": \"user\","
            + " \"content\": \"H\\u00e9 \\\"there\\\" 🌍\"}],\n  \"model\" : \"%s\", \"x_vendor\": {\"deep\": [1e-7,"
            + " -0, {\"k\": null}]}, \"max_tokens\": 16 }";
    private static final String ANSWER = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1700000000,"
            + "\"model\":\"upstream-model-2025\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
            + "\"content\":\"Hello!\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":9,"
            + "\"completion_tokens\":2,\"total_tokens\":11}}";

    @ParameterizedTest(name = "{0} reaches {1} as {2}")
    @CsvSource({
            "openai/gpt-5, openai, gpt-5",
            "gemini/gemini-2.5-pro, gemini, gemini-2.5-pro",
            "anthropic/claude-sonnet-4-5, anthropic, claude-sonnet-4-5",
            "xai/grok-4, xai, grok-4",
            "openrouter/auto, openrouter, openrouter/auto",
            "meta-llama/llama-3-8b, openrouter, meta-llama/llama-3-8b",
            "openai/ft:gpt-4o:org/custom, openai, ft:gpt-4o:org/custom",
            "gpt-4o, openrouter, gpt-4o"})
    void eachPrefixReachesItsUpstreamWithOnlyTheModelChanged(String model, String provider, String upstreamModel)
            throws Exception {
        front.upstream().enqueue(new MockResponse.Builder().body(ANSWER).addHeader("Content-Type", "application/json").build());

        HttpResponse<String> response = front.gateway().send(front.gateway().request("/api/v1/chat/completions")
                .header("Content-Type", "application/json")
                .header("Cookie", "session=caller-secret")
                .header("OpenAI-Organization", "org-caller")
                .POST(HttpRequest.BodyPublishers.ofString(BODY_TEMPLATE.formatted(model)))
                .build());

        assertEquals(200, response.statusCode(), response.body());
        RecordedRequest received = front.upstream().takeRequest(5, TimeUnit.SECONDS);
        assertEquals("POST /" + provider + "/v1/chat/completions HTTP/1.1", received.getRequestLine());
        assertEquals(BODY_TEMPLATE.formatted(upstreamModel), received.getBody().utf8());
        assertEquals("Bearer sk-upstream-" + provider, received.getHeaders().get("Authorization"));
        assertEquals("application/json", received.getHeaders().get("Content-Type"));
        assertNull(received.getHeaders().get("Cookie"));
        assertNull(received.getHeaders().get("OpenAI-Organization"));
        assertEquals(provider.equals("openrouter") ? "aigw" : null, received.getHeaders().get("X-Title"));
    }

    @Test
    void theUpstreamAnswerComesBackAsItCameWithTheProviderAndTimings() {
        front.upstream().enqueue(new MockResponse.Builder().body(ANSWER)
                .addHeader("Content-Type", "application/json;charset=UTF-8")
                .addHeader("x-ratelimit-remaining-requests", "99")
                .addHeader("X-RateLimit-Reset-Tokens", "6ms")
                .addHeader("Set-Cookie", "upstream=secret")
                .build());

        HttpResponse<String> response = front.gateway().chat(BODY_TEMPLATE.formatted("openai/gpt-5"));

        assertEquals(200, response.statusCode());
        assertEquals(ANSWER, response.body());
        assertEquals("application/json;charset=UTF-8", response.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("openai", response.headers().firstValue("X-Gateway-Provider").orElseThrow());
        assertEquals("99", response.headers().firstValue("x-ratelimit-remaining-requests").orElseThrow());
        assertEquals("6ms", response.headers().firstValue("x-ratelimit-reset-tokens").orElseThrow());
        assertTrue(response.headers().firstValue("Set-Cookie").isEmpty());
        String timing = response.headers().firstValue("Server-Timing").orElseThrow();
        assertTrue(timing.matches("gateway;dur=\\d+\\.\\d{3}, upstream;dur=\\d+\\.\\d{3}"), timing);
    }

    @Test
    void upstreamHeadersThatCouldBreakTheCallersAnswerAreNotPassedOn() {
        front.upstream().enqueue(new MockResponse.Builder().body(ANSWER)
                .addHeaderLenient("Content-Type", "application/json\u0001")
                .addHeaderLenient("x-ratelimit-limit-requests", "10\u0000")
                .addHeaderLenient("x-ratelimit-reset requests", "1s")
                .addHeader("x-ratelimit-remaining-requests", "99")
                .addHeaderLenient("X-Upstream-Note", "not\u0007relayed")
                .build());

        HttpResponse<String> response = front.gateway().chat(BODY_TEMPLATE.formatted("openai/gpt-5"));

        assertEquals(200, response.statusCode());
        assertEquals(ANSWER, response.body());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("99", response.headers().firstValue("x-ratelimit-remaining-requests").orElseThrow());
        assertTrue(response.headers().firstValue("x-ratelimit-limit-requests").isEmpty());
        assertTrue(response.headers().map().keySet().stream().noneMatch(name -> name.contains(" ")));
    }

    @Test
    void aRepeatedUpstreamHeaderIsPassedOnOnlyWhenEveryValueIsWellFormed() {
        front.upstream().enqueue(new MockResponse.Builder().body(ANSWER)
                .addHeader("x-ratelimit-limit-requests", "10")
                .addHeaderLenient("x-ratelimit-limit-requests", "20\u0000")
                .build());

        HttpResponse<String> response = front.gateway().chat(BODY_TEMPLATE.formatted("openai/gpt-5"));

        assertEquals(200, response.statusCode());
        assertEquals(ANSWER, response.body());
        assertTrue(response.headers().firstValue("x-ratelimit-limit-requests").isEmpty());
    }

    @Test
    void aMalformedRetryAfterIsDroppedFromAnUpstreamErrorThatKeepsItsStatus() {
        front.upstream().enqueue(new MockResponse.Builder().code(429).body("{\"error\":{\"message\":\"slow down\"}}")
                .addHeaderLenient("Retry-After", "3\u001b[2J").build());

        HttpResponse<String> response = front.gateway().chat(BODY_TEMPLATE.formatted("openai/gpt-5"));

        assertEquals(429, response.statusCode());
        assertTrue(response.headers().firstValue("Retry-After").isEmpty());
    }

    @Test
    void anOpenAiShapedUpstreamErrorPassesThroughToTheByte() {
        String error = "{\"error\":{\"message\":\"Rate limit reached\",\"type\":\"requests\",\"param\":null,"
                + "\"code\":\"rate_limit_exceeded\"}}";
        front.upstream().enqueue(new MockResponse.Builder().code(429).body(error).addHeader("Retry-After", "3").build());

        HttpResponse<String> response = front.gateway().chat(BODY_TEMPLATE.formatted("openai/gpt-5"));

        assertEquals(429, response.statusCode());
        assertEquals(error, response.body());
        assertEquals("3", response.headers().firstValue("Retry-After").orElseThrow());
    }

    @Test
    void geminisArrayWrappedErrorIsNormalisedKeepingStatusAndMessage() {
        front.upstream().enqueue(new MockResponse.Builder().code(400).body("[{\"error\":{\"code\":400,\"message\":"
                + "\"API key not valid. Please pass a valid API key.\",\"status\":\"INVALID_ARGUMENT\"}}]").build());

        HttpResponse<String> response = front.gateway().chat(BODY_TEMPLATE.formatted("gemini/gemini-2.5-pro"));

        assertEquals(400, response.statusCode());
        assertEquals("{\"error\":{\"message\":\"API key not valid. Please pass a valid API key.\","
                + "\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_argument\"}}", response.body());
    }

    @Test
    void openRoutersNumericCodeIsNormalised() {
        front.upstream().enqueue(new MockResponse.Builder().code(402)
                .body("{\"error\":{\"code\":402,\"message\":\"Insufficient credits\"}}").build());

        HttpResponse<String> response = front.gateway().chat(BODY_TEMPLATE.formatted("meta-llama/llama-3-8b"));

        assertEquals(402, response.statusCode());
        assertEquals("{\"error\":{\"message\":\"Insufficient credits\",\"type\":\"upstream_error\",\"param\":null,"
                + "\"code\":null}}", response.body());
    }

    @Test
    void anErrorPageThatIsNotJsonBecomesAnOpenAiError() {
        front.upstream().enqueue(new MockResponse.Builder().code(503).body("<html>Service Unavailable</html>")
                .addHeader("Content-Type", "text/html").build());

        HttpResponse<String> response = front.gateway().chat(BODY_TEMPLATE.formatted("xai/grok-4"));

        assertEquals(503, response.statusCode());
        assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
        assertEquals("{\"error\":{\"message\":\"Upstream xai answered 503: <html>Service Unavailable</html>\","
                + "\"type\":\"server_error\",\"param\":null,\"code\":null}}", response.body());
    }

    @Test
    void aProviderWithoutAKeyAnswers400NamingTheVariableToSet() {
        front.replace(
                TestGateway.start(Map.of("providers.xai.base-url", front.upstream().url("/xai/v1").toString()), Map.of()));

        HttpResponse<String> response = front.gateway().chat(BODY_TEMPLATE.formatted("xai/grok-4"));

        assertEquals(400, response.statusCode());
        assertEquals("{\"error\":{\"message\":\"The model 'xai/grok-4' goes to the provider 'xai', which has no API"
                + " key configured on this gateway: its operator sets XAI_API_KEY (or providers.xai.api-key) where the"
                + " gateway runs.\",\"type\":\"invalid_request_error\",\"param\":\"model\","
                + "\"code\":\"provider_not_configured\"}}", response.body());
        assertEquals(0, front.upstream().getRequestCount());
    }

    @Test
    void anUpstreamSlowerThanTheFirstByteTimeoutAnswers504() {
        front.restart(Map.of("gateway.timeouts.first-byte", "300ms"));
        front.upstream().enqueue(new MockResponse.Builder().body(ANSWER).headersDelay(3, TimeUnit.SECONDS).build());

        HttpResponse<String> response = front.gateway().chat(BODY_TEMPLATE.formatted("openai/gpt-5"));

        assertEquals(504, response.statusCode());
        assertEquals("{\"error\":{\"message\":\"Upstream openai sent no response headers within 300 ms"
                + " (gateway.timeouts.first-byte).\",\"type\":\"upstream_error\",\"param\":null,\"code\":\"timeout\"}}",
                response.body());
    }
}
