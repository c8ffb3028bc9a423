package io.aigw.runtime.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.HttpResponseFor;
import com.openai.errors.PermissionDeniedException;
import com.openai.errors.RateLimitException;
import com.openai.errors.UnauthorizedException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.models.Model;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.http.HttpRequest;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A key's policies as the official OpenAI Java SDK meets them: the exceptions it throws for a model
 * not allowed, an expired key and a spent rate limit, and the {@code x-ratelimit-*} headers it reads.
 */
public final class KeyPoliciesSdkTest {
    private static final String COMPLETION = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1700000000,"
            + "\"model\":\"gpt-5-2025-08-07\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
            + "\"content\":\"Hi\",\"refusal\":null},\"logprobs\":null,\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3,\"total_tokens\":8}}";

    private MockWebServer upstream;
    private TestGateway gateway;
    private KeysApi keys;

    @BeforeEach
    void start() throws IOException {
        upstream = new MockWebServer();
        upstream.start(InetAddress.getLoopbackAddress(), 0);
        gateway = TestGateway.start(Map.of("providers.openai.base-url", upstream.url("/v1").toString(),
                "gateway.access-log", "off"), Map.of("OPENAI_API_KEY", "sk-upstream-openai"));
        keys = KeysApi.of(gateway);
    }

    @AfterEach
    void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void aModelOutsideTheAllowListIsRefusedWith403BeforeAnyUpstreamCallAndTheListShowsOnlyAllowedModels() {
        String key = key("{\"name\":\"openai-only\",\"models\":[\"openai/gpt-5*\"]}");

        PermissionDeniedException refused = assertThrows(PermissionDeniedException.class,
                () -> client(key).chat().completions().create(params("anthropic/claude-haiku-4-5")));
        assertEquals(403, refused.statusCode());
        assertEquals("model_not_allowed", refused.code().orElseThrow());
        assertEquals("permission_error", refused.type().orElseThrow());
        assertEquals(0, upstream.getRequestCount(), "no upstream call");

        upstream.enqueue(answer());
        assertEquals("Hi", client(key).chat().completions().create(params("openai/gpt-5-mini")).choices().get(0)
                .message().content().orElseThrow());

        List<String> listed = client(key).models().list().data().stream().map(Model::id).toList();
        assertEquals(List.of("openai/gpt-5", "openai/gpt-5-mini", "openai/gpt-5-nano", "openai/gpt-5-chat-latest"),
                listed);
        assertTrue(client(TestGateway.KEY).models().list().data().size() > listed.size(), "the master key sees all");
    }

    @Test
    void anExpiredKeyIsRefusedWith401SayingItExpiredAndWorksAgainOnceItsExpiryIsLifted() {
        long past = System.currentTimeMillis() / 1000 - 60;
        JsonObject created = KeysApi.json(keys.create("{\"name\":\"temp\",\"expires_at\":" + past + "}").body());

        UnauthorizedException refused = assertThrows(UnauthorizedException.class,
                () -> client(created.getString("key")).chat().completions().create(params("openai/gpt-5")));
        assertEquals(401, refused.statusCode());
        assertEquals("invalid_api_key", refused.code().orElseThrow());
        assertTrue(refused.getMessage().contains("has expired"), refused.getMessage());
        assertEquals(0, upstream.getRequestCount());

        assertEquals(200, keys.send(keys.request("/admin/v1/keys/" + created.getString("id"), TestGateway.KEY)
                .method("PATCH", HttpRequest.BodyPublishers.ofString("{\"expires_at\":null}"))).statusCode());
        upstream.enqueue(answer());
        assertEquals("chatcmpl-1", client(created.getString("key")).chat().completions().create(params("openai/gpt-5"))
                .id());
    }

    @Test
    void theSdkReadsTheGatewaysRateLimitHeadersInsteadOfTheUpstreams() {
        String key = key("{\"name\":\"limited\",\"rpm\":5,\"tpm\":100000}");
        upstream.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json")
                .addHeader("x-ratelimit-limit-requests", "10000").addHeader("x-ratelimit-remaining-requests", "9999")
                .addHeader("x-ratelimit-remaining-tokens", "1999990").addHeader("x-ratelimit-reset-requests", "6ms")
                .body(COMPLETION).build());

        HttpResponseFor<ChatCompletion> raw = client(key).chat().completions().withRawResponse()
                .create(params("openai/gpt-5").toBuilder().maxCompletionTokens(100).build());

        assertEquals(200, raw.statusCode());
        assertEquals(List.of("5"), raw.headers().values("x-ratelimit-limit-requests"));
        assertEquals(List.of("4"), raw.headers().values("x-ratelimit-remaining-requests"));
        assertEquals(List.of("100000"), raw.headers().values("x-ratelimit-limit-tokens"));
        long remainingTokens = Long.parseLong(raw.headers().values("x-ratelimit-remaining-tokens").getFirst());
        assertTrue(remainingTokens < 100000 - 100 && remainingTokens > 100000 - 200, "the estimate is held: "
                + remainingTokens);
        String reset = raw.headers().values("x-ratelimit-reset-requests").getFirst();
        assertTrue(reset.matches("(60|[1-5]?[0-9](\\.[0-9]{1,3})?)s"), reset);
        assertEquals(List.of(reset), raw.headers().values("x-ratelimit-reset-tokens"));
        assertEquals("chatcmpl-1", raw.parse().id());
    }

    @Test
    void aKeyPastItsRpmGetsTheSdksRateLimitExceptionWithRetryAfterAndNoUpstreamCall() {
        String key = key("{\"name\":\"two-a-minute\",\"rpm\":2}");
        upstream.enqueue(answer());
        upstream.enqueue(answer());
        client(key).chat().completions().create(params("openai/gpt-5"));
        client(key).chat().completions().create(params("openai/gpt-5"));

        RateLimitException refused = assertThrows(RateLimitException.class,
                () -> client(key).chat().completions().create(params("openai/gpt-5")));

        assertEquals(429, refused.statusCode());
        assertEquals("rate_limit_exceeded", refused.code().orElseThrow());
        assertEquals("requests", refused.type().orElseThrow());
        int retryAfter = Integer.parseInt(refused.headers().values("retry-after").getFirst());
        assertTrue(retryAfter >= 1 && retryAfter <= 60, "Retry-After: " + retryAfter);
        assertEquals(List.of("0"), refused.headers().values("x-ratelimit-remaining-requests"));
        assertTrue(refused.headers().values("x-ratelimit-limit-tokens").isEmpty(), "no tpm, no tokens headers");
        assertEquals(2, upstream.getRequestCount());
    }

    private String key(String body) {
        var created = keys.create(body);
        assertEquals(201, created.statusCode(), created.body());
        return KeysApi.json(created.body()).getString("key");
    }

    private static MockResponse answer() {
        return new MockResponse.Builder().addHeader("Content-Type", "application/json").body(COMPLETION).build();
    }

    private OpenAIClient client(String key) {
        return OpenAIOkHttpClient.builder().baseUrl(gateway.uri("/api/v1").toString()).apiKey(key).maxRetries(0)
                .build();
    }

    private static ChatCompletionCreateParams params(String model) {
        return ChatCompletionCreateParams.builder().model(model).addUserMessage("Say hello").build();
    }
}
