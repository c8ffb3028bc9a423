package io.aigw.runtime.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.errors.BadRequestException;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import io.aigw.runtime.testing.CallRecords;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Requests that cannot succeed however often they are sent, as the official OpenAI Java SDK meets
 * them with its default retries on: a 400 it gives up on at once (one request reaches the gateway),
 * never a 429 or 5xx it would send again and again. And the plain call the SDK makes by default
 * (no {@code max_completion_tokens}) fits a key with the {@code tpm} the documentation suggests.
 */
public final class RefusalsNotRetriedSdkTest {
    private static final String COMPLETION = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1700000000,"
            + "\"model\":\"gpt-5-2025-08-07\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
            + "\"content\":\"Hi\",\"refusal\":null},\"logprobs\":null,\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3,\"total_tokens\":8}}";

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer()
            .config("gateway.access-log", "off").environment("OPENAI_API_KEY", "sk-upstream-openai");

    @Test
    void aRequestWhoseEstimateAloneIsOverTheKeysTpmIsABadRequestTheSdkDoesNotRetry() {
        String key = key("{\"name\":\"small\",\"tpm\":1000}");
        Map<Integer, Double> before = CallRecords.requestsCounted(front.gateway());

        BadRequestException refused = assertThrows(BadRequestException.class, () -> client(key).chat().completions()
                .create(params("openai/gpt-5").toBuilder().maxCompletionTokens(5000).build()));

        assertEquals(400, refused.statusCode());
        assertEquals("request_exceeds_tpm", refused.code().orElseThrow());
        assertEquals("invalid_request_error", refused.type().orElseThrow());
        assertEquals(List.of(), refused.headers().values("retry-after"), "nothing to wait for");
        String message = refused.getMessage();
        assertTrue(message.contains("more than this workspace key's limit of 1000 tokens a minute, so it can never be"
                + " admitted:"), message);
        assertTrue(message.contains(" and 5000 for its answer (its max_completion_tokens)."), message);
        assertEquals(1, CallRecords.countedSince(before, CallRecords.requestsCounted(front.gateway()), 400),
                "one request, not retried");
        assertEquals(0, front.upstream().getRequestCount());
    }

    @Test
    void aPlainCallToGpt5OrO3FitsAKeyOf40000TokensAMinute() {
        String key = key("{\"name\":\"app\",\"tpm\":40000}");
        front.upstream().enqueue(answer());
        front.upstream().enqueue(answer());

        assertEquals("chatcmpl-1", client(key).chat().completions().create(params("openai/gpt-5")).id());
        assertEquals("chatcmpl-1", client(key).chat().completions().create(params("openai/o3")).id());
        assertEquals(2, front.upstream().getRequestCount());
    }

    @Test
    void aProviderWithoutAKeyIsABadRequestNamingItsSettingsThatTheSdkDoesNotRetry() {
        Map<Integer, Double> before = CallRecords.requestsCounted(front.gateway());

        BadRequestException catchAll = assertThrows(BadRequestException.class,
                () -> client(TestGateway.KEY).chat().completions().create(params("mistral/mistral-large")));
        BadRequestException direct = assertThrows(BadRequestException.class,
                () -> client(TestGateway.KEY).chat().completions().create(params("gemini/gemini-2.5-flash")));

        assertEquals("provider_not_configured", catchAll.code().orElseThrow());
        assertEquals("invalid_request_error", catchAll.type().orElseThrow());
        assertEquals("model", catchAll.param().orElseThrow());
        assertTrue(catchAll.getMessage().contains("The model 'mistral/mistral-large' goes to the provider 'openrouter'"
                + " (the catch-all, which serves every prefix no other provider claims), which has no API key"
                + " configured on this gateway: its operator sets OPENROUTER_API_KEY (or providers.openrouter.api-key)"
                + " where the gateway runs."), catchAll.getMessage());
        assertTrue(direct.getMessage().contains("The model 'gemini/gemini-2.5-flash' goes to the provider 'gemini',"
                + " which has no API key configured on this gateway: its operator sets GEMINI_API_KEY (or"
                + " providers.gemini.api-key)"), direct.getMessage());
        assertEquals(2, CallRecords.countedSince(before, CallRecords.requestsCounted(front.gateway()), 400),
                "two requests, neither retried");
        assertEquals(0, front.upstream().getRequestCount());
    }

    private String key(String body) {
        HttpResponse<String> created = KeysApi.of(front.gateway()).create(body);
        assertEquals(201, created.statusCode(), created.body());
        return KeysApi.json(created.body()).getString("key");
    }

    private static MockResponse answer() {
        return new MockResponse.Builder().addHeader("Content-Type", "application/json").body(COMPLETION).build();
    }

    /** The SDK as an application builds it: its default retries on. */
    private OpenAIClient client(String key) {
        return OpenAIOkHttpClient.builder().baseUrl(front.gateway().uri("/api/v1").toString()).apiKey(key).build();
    }

    private static ChatCompletionCreateParams params(String model) {
        return ChatCompletionCreateParams.builder().model(model).addUserMessage("Say hello").build();
    }
}
