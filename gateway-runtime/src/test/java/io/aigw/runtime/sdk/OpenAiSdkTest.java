package io.aigw.runtime.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.openai.client.OpenAIClient;
import com.openai.client.okhttp.OpenAIOkHttpClient;
import com.openai.core.http.StreamResponse;
import com.openai.errors.BadRequestException;
import com.openai.errors.NotFoundException;
import com.openai.errors.UnauthorizedException;
import com.openai.models.chat.completions.ChatCompletion;
import com.openai.models.chat.completions.ChatCompletionChunk;
import com.openai.models.chat.completions.ChatCompletionCreateParams;
import com.openai.models.models.Model;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.TestGateway;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The official OpenAI Java SDK, pointed at the gateway, works as it does against OpenAI. */
public final class OpenAiSdkTest {
    private static final String COMPLETION = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1700000000,"
            + "\"model\":\"gpt-5-2025-08-07\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
            + "\"content\":\"Hello from upstream\",\"refusal\":null},\"logprobs\":null,\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3,\"total_tokens\":8}}";

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer();

    @Test
    void chatCreateReturnsTheUpstreamAnswer() throws Exception {
        front.upstream().enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json").body(COMPLETION).build());

        ChatCompletion completion = client(TestGateway.KEY).chat().completions().create(params());

        assertEquals("Hello from upstream", completion.choices().get(0).message().content().orElseThrow());
        assertEquals("gpt-5-2025-08-07", completion.model());
        assertEquals(8, completion.usage().orElseThrow().totalTokens());
        RecordedRequest received = front.upstream().takeRequest(5, TimeUnit.SECONDS);
        assertEquals("POST /v1/chat/completions HTTP/1.1", received.getRequestLine());
        assertEquals("Bearer sk-upstream-openai", received.getHeaders().get("Authorization"));
        String sent = received.getBody().utf8();
        assertTrue(sent.startsWith("{\"messages\":[{\"content\":\"Say hello\",\"role\":\"user\"}],\"model\":\"gpt-5\""),
                sent);
    }

    @Test
    void streamingYieldsEveryChunk() throws Exception {
        front.upstream().enqueue(new MockResponse.Builder().addHeader("Content-Type", "text/event-stream").body(
                chunk("{\"role\":\"assistant\",\"content\":\"Hel\"}", "null")
                        + chunk("{\"content\":\"lo\"}", "null")
                        + chunk("{}", "\"stop\"")
                        + "data: [DONE]\n\n").build());

        StringBuilder text = new StringBuilder();
        try (StreamResponse<ChatCompletionChunk> stream = client(TestGateway.KEY).chat().completions()
                .createStreaming(params())) {
            stream.stream().forEach(chunk -> chunk.choices().forEach(
                    choice -> choice.delta().content().ifPresent(text::append)));
        }

        assertEquals("Hello", text.toString());
        String sent = front.upstream().takeRequest(5, TimeUnit.SECONDS).getBody().utf8();
        assertTrue(sent.contains("\"model\":\"gpt-5\"") && sent.contains("\"stream\":true"), sent);
    }

    @Test
    void modelsListStartsWithAutoAndEveryModelPassesTheSdksValidation() {
        List<Model> models = validatingClient().models().list().data();

        models.forEach(Model::validate);
        List<String> ids = models.stream().map(Model::id).toList();
        assertEquals("gateway/auto", ids.get(0));
        assertTrue(ids.contains("openai/gpt-5") && ids.contains("openrouter/auto"), ids.toString());
        assertTrue(models.size() > 30, ids.toString());
        assertTrue(models.stream().allMatch(model -> model.created() > 1_700_000_000L), models.toString());
        Model gpt5 = models.stream().filter(model -> model.id().equals("openai/gpt-5")).findFirst().orElseThrow();
        assertEquals("openai", gpt5.ownedBy());
        assertEquals(400_000L, gpt5._additionalProperties().get("context_length").convert(Long.class));
        assertEquals("chat", gpt5._additionalProperties().get("kind").convert(String.class));
        Model embedder = models.stream().filter(model -> model.id().equals("openai/text-embedding-3-small"))
                .findFirst().orElseThrow();
        assertEquals("embedding", embedder._additionalProperties().get("kind").convert(String.class));
    }

    @Test
    void modelsRetrieveAnswersTheListedModelAndAnUnknownIdIsNotFound() {
        OpenAIClient client = validatingClient();
        Model listed = client.models().list().data().stream().filter(model -> model.id().equals("openai/gpt-5"))
                .findFirst().orElseThrow();

        Model retrieved = client.models().retrieve("openai/gpt-5");

        assertEquals(listed, retrieved);
        NotFoundException missing = assertThrows(NotFoundException.class,
                () -> client.models().retrieve("openai/gpt-6"));
        assertEquals(404, missing.statusCode());
        assertEquals(Optional.of("model_not_found"), missing.code());
    }

    @Test
    void aWrongKeyThrowsTheSdksUnauthorizedException() {
        UnauthorizedException refused = assertThrows(UnauthorizedException.class,
                () -> client("sk-gw-not-a-real-key-000000000000").chat().completions().create(params()));

        assertEquals(401, refused.statusCode());
        assertEquals(0, front.upstream().getRequestCount());
    }

    @Test
    void aProviderWithoutAKeyThrowsTheSdksBadRequestException() {
        BadRequestException failed = assertThrows(BadRequestException.class,
                () -> client(TestGateway.KEY).chat().completions().create(params().toBuilder().model("xai/grok-4")
                        .build()));

        assertEquals(400, failed.statusCode());
        assertEquals("provider_not_configured", failed.code().orElseThrow());
        assertTrue(failed.getMessage().contains("XAI_API_KEY"), failed.getMessage());
    }

    private OpenAIClient client(String key) {
        return OpenAIOkHttpClient.builder()
                .baseUrl(front.gateway().uri("/api/v1").toString())
                .apiKey(key)
                .maxRetries(0)
                .build();
    }

    /** A client that checks every answer against the API's schema, as {@code Model.validate()} does. */
    private OpenAIClient validatingClient() {
        return OpenAIOkHttpClient.builder()
                .baseUrl(front.gateway().uri("/api/v1").toString())
                .apiKey(TestGateway.KEY)
                .maxRetries(0)
                .responseValidation(true)
                .build();
    }

    private static ChatCompletionCreateParams params() {
        return ChatCompletionCreateParams.builder().model("openai/gpt-5").addUserMessage("Say hello").build();
    }

    private static String chunk(String delta, String finishReason) {
        return "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
                + "\"model\":\"gpt-5\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":"
                + finishReason + "}]}\n\n";
    }
}
