package io.aigw.runtime.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.CallRecords;
import io.aigw.runtime.testing.ClientProcess;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.PythonSdks;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The official OpenAI Python SDK pointed at the gateway as its documentation says (the environment's
 * {@code OPENAI_BASE_URL} and {@code OPENAI_API_KEY}), with its default retries (two): answers and
 * streams read as OpenAI's, the model list and retrieve typed as OpenAI's, and a request that cannot
 * succeed raised at once as a {@code BadRequestError}, sent once, never retried.
 */
public final class OpenAiPythonSdkTest {
    /** Long enough for the SDK's start and a few calls; a retried 429 with {@code Retry-After: 60} outlives it. */
    private static final Duration SCRIPT = Duration.ofSeconds(45);

    private static final String COMPLETION = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1700000000,"
            + "\"model\":\"gpt-5-2025-08-07\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
            + "\"content\":\"Hello from upstream\",\"refusal\":null},\"logprobs\":null,\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3,\"total_tokens\":8}}";

    /** Sends one chat completion with {@code sys.argv[1]} as its arguments and prints the answer or the error raised. */
    private static final String CHAT = """
            import json, sys, openai
            client = openai.OpenAI()
            try:
                completion = client.chat.completions.create(
                    messages=[{"role": "user", "content": "Say hello"}], **json.loads(sys.argv[1]))
                print(json.dumps({"id": completion.id, "content": completion.choices[0].message.content,
                                  "total_tokens": completion.usage.total_tokens}))
            except openai.APIStatusError as e:
                print(json.dumps({"raised": type(e).__name__, "status": e.status_code, "code": e.code,
                                  "type": e.type, "param": e.param, "message": e.message,
                                  "retry_after": e.response.headers.get("retry-after")}))
            """;

    /** Streams one chat completion and prints the text and finish reason it put together. */
    private static final String STREAM = """
            import json, openai
            client = openai.OpenAI()
            text, finish = "", None
            for chunk in client.chat.completions.create(
                    model="openai/gpt-5", messages=[{"role": "user", "content": "Say hello"}], stream=True):
                for choice in chunk.choices:
                    text += choice.delta.content or ""
                    finish = choice.finish_reason or finish
            print(json.dumps({"text": text, "finish_reason": finish}))
            """;

    /** Lists, retrieves and misses, printing what the SDK's typed objects hold as one JSON document. */
    private static final String MODELS = """
            import json, openai
            client = openai.OpenAI()
            listed = client.models.list()
            retrieved = client.models.retrieve("openai/gpt-5")
            try:
                client.models.retrieve("openai/gpt-6")
                missing = None
            except openai.NotFoundError as e:
                missing = {"status": e.status_code, "code": e.code}
            print(json.dumps({
                "listed": [{"id": m.id, "object": m.object, "created": m.created, "owned_by": m.owned_by}
                           for m in listed.data],
                "created_are_ints": all(type(m.created) is int for m in listed.data),
                "retrieved": retrieved.model_dump(exclude_unset=True),
                "missing": missing}))
            """;

    /** Embeds two texts and retrieves the model, printing the vectors the SDK decoded and the model it typed. */
    private static final String EMBEDDINGS = """
            import json, openai
            client = openai.OpenAI()
            embeddings = client.embeddings.create(model="openai/text-embedding-3-small",
                                                  input=["The food was delicious", "and the waiter"])
            retrieved = client.models.retrieve("openai/text-embedding-3-small")
            print(json.dumps({"vectors": [e.embedding for e in embeddings.data], "model": embeddings.model,
                              "prompt_tokens": embeddings.usage.prompt_tokens,
                              "total_tokens": embeddings.usage.total_tokens,
                              "retrieved": retrieved.model_dump(exclude_unset=True)}))
            """;
    /** Two vectors as the SDK asks for them, base64 of little-endian floats: [1.0, 2.0] and [0.5]. */
    private static final String EMBEDDED = "{\"object\":\"list\",\"data\":[{\"object\":\"embedding\",\"index\":0,"
            + "\"embedding\":\"AACAPwAAAEA=\"},{\"object\":\"embedding\",\"index\":1,\"embedding\":\"AAAAPw==\"}],"
            + "\"model\":\"text-embedding-3-small\",\"usage\":{\"prompt_tokens\":9,\"total_tokens\":9}}";

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer()
            .config("gateway.access-log", "off").environment("OPENAI_API_KEY", "sk-upstream-openai");

    @Test
    void aRequestWhoseEstimateAloneIsOverTheKeysTpmRaisesBadRequestErrorAtOnceAndIsSentOnce() {
        String key = key("{\"name\":\"small\",\"tpm\":1000}");
        Map<Integer, Double> before = CallRecords.requestsCounted(front.gateway());

        JsonObject raised = chat(key, "{\"model\":\"openai/gpt-5\",\"max_completion_tokens\":5000}");

        assertEquals("BadRequestError", raised.getString("raised", "nothing raised: " + raised), raised.toString());
        assertEquals(400, raised.getInt("status"));
        assertEquals("request_exceeds_tpm", raised.getString("code"));
        assertEquals("invalid_request_error", raised.getString("type"));
        assertEquals(JsonValue.NULL, raised.get("retry_after"), "nothing to wait for");
        assertTrue(raised.getString("message").contains("limit of 1000 tokens a minute"), raised.toString());
        assertSentOnceAsA400(before);
    }

    @Test
    void aModelWhoseProviderHasNoKeyRaisesBadRequestErrorAtOnceAndIsSentOnce() {
        Map<Integer, Double> before = CallRecords.requestsCounted(front.gateway());

        JsonObject raised = chat(TestGateway.KEY, "{\"model\":\"mistral/mistral-large\"}");

        assertEquals("BadRequestError", raised.getString("raised", "nothing raised: " + raised), raised.toString());
        assertEquals(400, raised.getInt("status"));
        assertEquals("provider_not_configured", raised.getString("code"));
        assertEquals("model", raised.getString("param"));
        assertTrue(raised.getString("message").contains("OPENROUTER_API_KEY"), raised.toString());
        assertSentOnceAsA400(before);
    }

    @Test
    void aChatCompletionGivesTheUpstreamsAnswerAndTheUpstreamGetsTheModelWithoutItsPrefix() throws Exception {
        front.upstream().enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json")
                .body(COMPLETION).build());

        JsonObject answer = chat(TestGateway.KEY, "{\"model\":\"openai/gpt-5\"}");

        assertEquals(Json.createObjectBuilder().add("id", "chatcmpl-1").add("content", "Hello from upstream")
                .add("total_tokens", 8).build(), answer);
        JsonObject sent = received();
        assertEquals("gpt-5", sent.getString("model"));
        assertEquals("Say hello", sent.getJsonArray("messages").getJsonObject(0).getString("content"));
    }

    @Test
    void aStreamedChatCompletionGivesEveryChunksTextAndTheUpstreamGetsTheModelWithoutItsPrefix() throws Exception {
        front.upstream().enqueue(new MockResponse.Builder().addHeader("Content-Type", "text/event-stream").body(
                chunk("{\"role\":\"assistant\",\"content\":\"Hel\"}", "null")
                        + chunk("{\"content\":\"lo\"}", "null")
                        + chunk("{}", "\"stop\"")
                        + "data: [DONE]\n\n").build());

        JsonObject streamed = json(python(STREAM, TestGateway.KEY));

        assertEquals(Json.createObjectBuilder().add("text", "Hello").add("finish_reason", "stop").build(), streamed);
        JsonObject sent = received();
        assertEquals("gpt-5", sent.getString("model"));
        assertTrue(sent.getBoolean("stream"), sent.toString());
    }

    @Test
    void modelsListAndRetrieveGiveTypedModelsWithTheirCreationTimeAndAnUnknownIdRaisesNotFound() {
        TestGateway gateway = front.gateway();
        JsonArray served = json(gateway.send(gateway.request("/api/v1/models").build()).body()).getJsonArray("data");

        JsonObject seen = json(python(MODELS, TestGateway.KEY));

        // What the SDK's Model holds of each is OpenAI's four members, as the gateway sent them.
        List<JsonObject> expected = served.stream().map(JsonValue::asJsonObject)
                .map(model -> Json.createObjectBuilder().add("id", model.get("id")).add("object", model.get("object"))
                        .add("created", model.get("created")).add("owned_by", model.get("owned_by")).build())
                .toList();
        assertEquals(expected, seen.getJsonArray("listed").stream().map(JsonValue::asJsonObject).toList());
        assertTrue(seen.getBoolean("created_are_ints"), "created is an int on every model: " + seen);
        JsonObject gpt5 = served.stream().map(JsonValue::asJsonObject)
                .filter(model -> model.getString("id").equals("openai/gpt-5")).findFirst().orElseThrow();
        assertEquals(gpt5, seen.getJsonObject("retrieved"));
        assertEquals(Json.createObjectBuilder().add("status", 404).add("code", "model_not_found").build(),
                seen.getJsonObject("missing"));
    }

    @Test
    void embeddingsCreateDecodesTheUpstreamsVectorsAndModelsRetrieveTypesTheEmbeddingModelWithItsKind()
            throws Exception {
        front.upstream().enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json")
                .body(EMBEDDED).build());
        TestGateway gateway = front.gateway();
        JsonObject served = json(gateway.send(gateway.request("/api/v1/models/openai/text-embedding-3-small").build())
                .body());

        JsonObject seen = json(python(EMBEDDINGS, TestGateway.KEY));

        assertEquals(Json.createArrayBuilder().add(Json.createArrayBuilder().add(1.0).add(2.0))
                .add(Json.createArrayBuilder().add(0.5)).build(), seen.getJsonArray("vectors"));
        assertEquals("text-embedding-3-small", seen.getString("model"));
        assertEquals(9, seen.getInt("prompt_tokens"));
        assertEquals(9, seen.getInt("total_tokens"));
        assertEquals(served, seen.getJsonObject("retrieved"));
        assertEquals("embedding", served.getString("kind"));
        RecordedRequest request = front.upstream().takeRequest(5, TimeUnit.SECONDS);
        assertEquals("POST /v1/embeddings HTTP/1.1", request.getRequestLine());
        JsonObject sent = json(request.getBody().utf8());
        assertEquals("text-embedding-3-small", sent.getString("model"));
        assertEquals(Json.createArrayBuilder().add("The food was delicious").add("and the waiter").build(),
                sent.getJsonArray("input"));
        assertEquals("base64", sent.getString("encoding_format"), "the SDK's own choice, passed on: " + sent);
    }

    /** The gateway counted one more request, a 400: the SDK did not send it again. */
    private void assertSentOnceAsA400(Map<Integer, Double> before) {
        Map<Integer, Double> after = CallRecords.requestsCounted(front.gateway());
        double all = after.keySet().stream().mapToDouble(status -> CallRecords.countedSince(before, after, status)).sum();
        assertEquals(1, all, "one request counted, not retried: " + before + " then " + after);
        assertEquals(1, CallRecords.countedSince(before, after, 400), "counted as a 400: " + after);
        assertEquals(0, front.upstream().getRequestCount(), "nothing reached the upstream");
    }

    private JsonObject chat(String key, String arguments) {
        return json(python(CHAT, key, arguments));
    }

    /** Runs {@code script} as an application would, the SDK configured by its environment alone. */
    private String python(String script, String key, String... args) {
        ClientProcess.Finished finished = PythonSdks.run(script, Map.of(
                "OPENAI_BASE_URL", front.gateway().uri("/api/v1").toString(), "OPENAI_API_KEY", key), SCRIPT, args);
        assertEquals(0, finished.exitCode(), "the Python script failed: " + finished.stdout() + finished.stderr());
        return finished.stdout();
    }

    private JsonObject received() throws InterruptedException {
        RecordedRequest request = front.upstream().takeRequest(5, TimeUnit.SECONDS);
        assertEquals("POST /v1/chat/completions HTTP/1.1", request.getRequestLine());
        return json(request.getBody().utf8());
    }

    private String key(String body) {
        HttpResponse<String> created = KeysApi.of(front.gateway()).create(body);
        assertEquals(201, created.statusCode(), created.body());
        return KeysApi.json(created.body()).getString("key");
    }

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    private static String chunk(String delta, String finishReason) {
        return "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
                + "\"model\":\"gpt-5\",\"choices\":[{\"index\":0,\"delta\":" + delta + ",\"finish_reason\":"
                + finishReason + "}]}\n\n";
    }
}
