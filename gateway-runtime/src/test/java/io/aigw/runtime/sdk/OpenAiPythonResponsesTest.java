package io.aigw.runtime.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aigw.runtime.testing.ClientProcess;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.PythonSdks;
import io.aigw.runtime.testing.ResponsesUpstream.Usage;
import io.aigw.runtime.testing.ResponsesUpstream;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
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
 * The official OpenAI Python SDK's Responses API through the gateway, unmodified and pointed at it
 * by {@code OPENAI_BASE_URL}: {@code responses.create} plain and streamed read as OpenAI's typed
 * objects and events, and {@code responses.retrieve} of the response it created.
 */
public final class OpenAiPythonResponsesTest {
    private static final Duration SCRIPT = Duration.ofSeconds(45);
    private static final Usage USAGE = new Usage(12, 4, 7, 3);
    private static final List<ResponsesUpstream.Item> HELLO = List.of(
            new ResponsesUpstream.Message("msg_1", "Hello from upstream"));

    /** Creates a response, retrieves it, and prints what the SDK's typed objects hold. */
    private static final String CREATE_AND_RETRIEVE = """
            import json, openai
            client = openai.OpenAI()
            created = client.responses.create(model="openai/gpt-5", input="Say hello")
            retrieved = client.responses.retrieve(created.id)
            print(json.dumps({"id": created.id, "text": created.output_text,
                              "input_tokens": created.usage.input_tokens,
                              "cached_tokens": created.usage.input_tokens_details.cached_tokens,
                              "reasoning_tokens": created.usage.output_tokens_details.reasoning_tokens,
                              "retrieved": retrieved.id, "retrieved_text": retrieved.output_text}))
            """;

    /** Streams a response and prints its text, its first and last event types and the completed response. */
    private static final String STREAM = """
            import json, openai
            client = openai.OpenAI()
            text, types, final = "", [], None
            for event in client.responses.create(model="openai/gpt-5", input="Say hello", stream=True):
                types.append(event.type)
                if event.type == "response.output_text.delta":
                    text += event.delta
                if event.type == "response.completed":
                    final = event.response
            print(json.dumps({"text": text, "first": types[0], "last": types[-1], "events": len(types),
                              "id": final.id, "output_text": final.output_text,
                              "total_tokens": final.usage.total_tokens}))
            """;

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer()
            .config("gateway.access-log", "off").environment("OPENAI_API_KEY", "sk-upstream-openai");

    @Test
    void createAndRetrieveGiveTheUpstreamsResponseAsTypedObjects() throws Exception {
        String body = ResponsesUpstream.response("resp_py1", "gpt-5-2025-08-07", HELLO, USAGE);
        front.upstream().enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/json").body(body)
                .build());
        front.upstream().enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/json").body(body)
                .build());

        JsonObject printed = json(python(CREATE_AND_RETRIEVE));

        assertEquals(Json.createObjectBuilder().add("id", "resp_py1").add("text", "Hello from upstream")
                .add("input_tokens", 12).add("cached_tokens", 4).add("reasoning_tokens", 3)
                .add("retrieved", "resp_py1").add("retrieved_text", "Hello from upstream").build(), printed);
        RecordedRequest create = front.upstream().takeRequest(5, TimeUnit.SECONDS);
        assertEquals("POST /v1/responses HTTP/1.1", create.getRequestLine());
        assertEquals("gpt-5", json(create.getBody().utf8()).getString("model"));
        assertEquals("GET /v1/responses/resp_py1 HTTP/1.1",
                front.upstream().takeRequest(5, TimeUnit.SECONDS).getRequestLine());
    }

    @Test
    void aStreamedCreateGivesEveryEventTypedAndTheCompletedResponse() {
        int events = ResponsesUpstream.events("resp_py2", "gpt-5-2025-08-07", HELLO, USAGE).size();
        front.upstream().enqueue(ResponsesUpstream.streamed("resp_py2", "gpt-5-2025-08-07", HELLO, USAGE));

        JsonObject printed = json(python(STREAM));

        assertEquals(Json.createObjectBuilder().add("text", "Hello from upstream").add("first", "response.created")
                .add("last", "response.completed").add("events", events).add("id", "resp_py2")
                .add("output_text", "Hello from upstream").add("total_tokens", 19).build(), printed);
    }

    private String python(String script) {
        ClientProcess.Finished finished = PythonSdks.run(script, Map.of(
                "OPENAI_BASE_URL", front.gateway().uri("/api/v1").toString(), "OPENAI_API_KEY", TestGateway.KEY),
                SCRIPT);
        assertEquals(0, finished.exitCode(), "the Python script failed: " + finished.stdout() + finished.stderr());
        return finished.stdout();
    }

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }
}
