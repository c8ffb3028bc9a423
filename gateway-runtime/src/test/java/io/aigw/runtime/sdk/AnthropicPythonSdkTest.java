package io.aigw.runtime.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.AnthropicUpstream;
import io.aigw.runtime.testing.ClientProcess;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.PythonSdks;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The official Anthropic Python SDK pointed at the gateway as its documentation says (the
 * environment's {@code ANTHROPIC_BASE_URL} and {@code ANTHROPIC_API_KEY}): every error the gateway
 * answers on {@code /anthropic} raised as the SDK's own exception for it, the ones not worth
 * retrying sent once even with the SDK's default retries (two); and a plain and a streamed answer
 * read by the SDK, text and usage with its cache tokens.
 */
public final class AnthropicPythonSdkTest {
    /** Long enough for the SDK's start and a dozen calls; a retried 429 with {@code retry-after} outlives it. */
    private static final Duration SCRIPT = Duration.ofSeconds(60);

    private static final String MODEL = "claude-sonnet-4-5";

    /** What the SDK sent for one call: one request, no retry. */
    private static final JsonArray SENT = Json.createArrayBuilder().add("/anthropic/v1/messages").build();

    /**
     * Makes each call of the list in {@code sys.argv[1]} ({@code key}, {@code max_retries},
     * {@code stream}, {@code request}) with a client of its own, and prints one JSON list: per call,
     * the message the SDK read or the exception it raised, and the paths of every request it sent.
     */
    private static final String CALLS = """
            import json, sys, anthropic
            results = []
            for call in json.loads(sys.argv[1]):
                sent = []
                client = anthropic.Anthropic(api_key=call["key"], max_retries=call["max_retries"],
                    http_client=anthropic.DefaultHttpxClient(
                        event_hooks={"request": [lambda request: sent.append(request.url.path)]}))
                try:
                    if call.get("stream"):
                        with client.messages.stream(**call["request"]) as stream:
                            message = stream.get_final_message()
                    else:
                        message = client.messages.create(**call["request"])
                    results.append({"id": message.id, "stop_reason": message.stop_reason,
                        "text": "".join(block.text for block in message.content if block.type == "text"),
                        "usage": message.usage.model_dump(include={"input_tokens", "output_tokens",
                            "cache_creation_input_tokens", "cache_read_input_tokens"}), "sent": sent})
                except anthropic.APIStatusError as e:
                    error = e.body.get("error", {}) if isinstance(e.body, dict) else {}
                    results.append({"raised": type(e).__name__, "status": e.status_code, "type": error.get("type"),
                        "request_id": e.request_id, "body_request_id": e.body.get("request_id"),
                        "x_request_id": e.response.headers.get("x-request-id"),
                        "retry_after": e.response.headers.get("retry-after"),
                        "sent": sent})
            print(json.dumps(results))
            """;

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().alsoFor("anthropic")
            .config("gateway.access-log", "off");

    @BeforeEach
    void upstreamAnswersAsItsPromptSays() {
        front.upstream().setDispatcher(new ErrorsOnRequest());
    }

    @Test
    void eachErrorTheGatewayAnswersIsRaisedAsTheSdksExceptionForItAndTheOnesNotWorthRetryingAreSentOnce() {
        String limited = key("{\"name\":\"one-a-minute\",\"rpm\":1}");
        String openAiOnly = key("{\"name\":\"openai-only\",\"models\":[\"openai/*\"]}");

        List<JsonObject> results = calls(Json.createArrayBuilder()
                .add(call("sk-gw-not-a-key", 2, "hello"))
                .add(call(openAiOnly, 2, "hello"))
                .add(call(TestGateway.KEY, 2, "hello").add("request", request("gemini/gemini-2.5-pro", "hello")))
                .add(call(TestGateway.KEY, 2, "status 404"))
                .add(call(limited, 0, "hello"))
                .add(call(limited, 0, "hello"))
                .add(call(TestGateway.KEY, 0, "status 529"))
                .add(call(TestGateway.KEY, 0, "status 500")));

        assertMadeByTheGateway(assertRaised(results.get(0), "AuthenticationError", 401, "authentication_error"));
        assertMadeByTheGateway(assertRaised(results.get(1), "PermissionDeniedError", 403, "permission_error"));
        assertMadeByTheGateway(assertRaised(results.get(2), "BadRequestError", 400, "invalid_request_error"));
        assertMadeByTheUpstream(assertRaised(results.get(3), "NotFoundError", 404, "not_found_error"));
        assertEquals("msg_01XFDUDYJgAACzvnptvVoYEL", results.get(4).getString("id", "the first call within the rpm: " + results.get(4)));
        JsonObject limitedOut = assertRaised(results.get(5), "RateLimitError", 429, "rate_limit_error");
        assertMadeByTheGateway(limitedOut);
        int retryAfter = Integer.parseInt(limitedOut.getString("retry_after", "none: " + limitedOut));
        assertTrue(retryAfter >= 1 && retryAfter <= 60, "retry-after: " + retryAfter);
        assertMadeByTheUpstream(assertRaised(results.get(6), "OverloadedError", 529, "overloaded_error"));
        assertMadeByTheUpstream(assertRaised(results.get(7), "InternalServerError", 500, "api_error"));
        for (JsonObject result : results) {
            assertEquals(1, result.getJsonArray("sent").size(), "sent once: " + result);
        }
        assertEquals(4, front.upstream().getRequestCount(), "the 404, the call within the rpm, the 529 and the 500;"
                + " what the gateway refused never reached the upstream");
    }

    @Test
    void aPlainAndAStreamedMessageAreReadByTheSdkWithTheirTextAndUsageAndTheUpstreamGetsTheGatewaysKey()
            throws Exception {
        List<JsonObject> results = calls(Json.createArrayBuilder()
                .add(call(TestGateway.KEY, 0, "hello"))
                .add(call(TestGateway.KEY, 0, "hello").add("stream", true)));

        assertEquals(Json.createObjectBuilder().add("id", "msg_01XFDUDYJgAACzvnptvVoYEL").add("stop_reason", "end_turn")
                .add("text", "Hello!").add("usage", usage(12, 6, 100, 2000)).add("sent", SENT).build(), results.get(0));
        assertEquals(Json.createObjectBuilder().add("id", "msg_014p7gG3wDgGV9EUtLvnow3U").add("stop_reason", "tool_use")
                .add("text", "Let me check the weather.").add("usage", usage(472, 89, 1000, 20000)).add("sent", SENT)
                .build(), results.get(1));
        for (boolean streamed : List.of(false, true)) {
            RecordedRequest received = front.upstream().takeRequest(5, TimeUnit.SECONDS);
            assertEquals("POST /v1/messages HTTP/1.1", received.getRequestLine());
            assertEquals("sk-upstream-anthropic", received.getHeaders().get("x-api-key"));
            assertEquals(null, received.getHeaders().get("authorization"), "the caller's credentials stay behind");
            assertEquals("2023-06-01", received.getHeaders().get("anthropic-version"));
            JsonObject body = json(received.getBody().utf8());
            assertEquals(MODEL, body.getString("model"));
            assertEquals(streamed, body.getBoolean("stream", false), body.toString());
        }
    }

    private static JsonObject usage(int input, int output, int cacheWrite, int cacheRead) {
        return Json.createObjectBuilder().add("input_tokens", input).add("output_tokens", output)
                .add("cache_creation_input_tokens", cacheWrite).add("cache_read_input_tokens", cacheRead).build();
    }

    private static JsonObject assertRaised(JsonObject result, String exception, int status, String type) {
        assertEquals(exception, result.getString("raised", "nothing raised: " + result), result.toString());
        assertEquals(status, result.getInt("status"), result.toString());
        assertEquals(type, result.getString("type", "no type: " + result), result.toString());
        return result;
    }

    /**
     * An error the gateway made carries the id it answered with in {@code X-Request-Id}, in its body,
     * and in {@code request-id}, where the SDK reads its {@code request_id} from.
     */
    private static void assertMadeByTheGateway(JsonObject result) {
        assertTrue(result.getString("x_request_id", "").startsWith("req_"), result.toString());
        assertEquals(result.getString("x_request_id"), result.getString("body_request_id", "none"), result.toString());
        assertEquals(result.getString("x_request_id"), result.getString("request_id", "none"), "the SDK's request_id");
    }

    /** An error in Anthropic's shape from the upstream reaches the SDK as the upstream sent it, its request-id too. */
    private static void assertMadeByTheUpstream(JsonObject result) {
        assertEquals(AnthropicUpstream.REQUEST_ID, result.getString("body_request_id", "none"), result.toString());
        assertEquals(AnthropicUpstream.REQUEST_ID, result.getString("request_id", "none"), "the SDK's request_id");
    }

    private static jakarta.json.JsonObjectBuilder call(String key, int maxRetries, String prompt) {
        return Json.createObjectBuilder().add("key", key).add("max_retries", maxRetries)
                .add("request", request(MODEL, prompt));
    }

    private static JsonObject request(String model, String prompt) {
        return Json.createObjectBuilder().add("model", model).add("max_tokens", 100).add("messages",
                Json.createArrayBuilder().add(Json.createObjectBuilder().add("role", "user").add("content", prompt)))
                .build();
    }

    /** Runs the calls as an application would, the SDK's base URL from its environment alone. */
    private List<JsonObject> calls(JsonArrayBuilder calls) {
        ClientProcess.Finished finished = PythonSdks.run(CALLS, Map.of(
                "ANTHROPIC_BASE_URL", front.gateway().uri("/anthropic").toString()), SCRIPT, calls.build().toString());
        assertEquals(0, finished.exitCode(), "the Python script failed: " + finished.stdout() + finished.stderr());
        JsonArray results = Json.createReader(new StringReader(finished.stdout())).readArray();
        return new ArrayList<>(results.getValuesAs(JsonObject.class));
    }

    private String key(String body) {
        HttpResponse<String> created = KeysApi.of(front.gateway()).create(body);
        assertEquals(201, created.statusCode(), created.body());
        return KeysApi.json(created.body()).getString("key");
    }

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    /**
     * Anthropic's upstream as a prompt asks it: {@code status N} answers that status with the error
     * type Anthropic sends with it; anything else {@link AnthropicUpstream}'s message, plain or streamed as asked.
     */
    private static final class ErrorsOnRequest extends Dispatcher {
        private static final Map<Integer, String> TYPES = Map.of(404, "not_found_error", 529, "overloaded_error",
                500, "api_error");

        @Override
        public MockResponse dispatch(RecordedRequest request) {
            JsonObject body = json(request.getBody().utf8());
            String prompt = body.getJsonArray("messages").getJsonObject(0).getString("content");
            if (prompt.startsWith("status ")) {
                int status = Integer.parseInt(prompt.substring("status ".length()));
                return AnthropicUpstream.error(status, TYPES.get(status), prompt);
            }
            return body.getBoolean("stream", false) ? AnthropicUpstream.stream(AnthropicUpstream.STREAM)
                    : AnthropicUpstream.message(AnthropicUpstream.MESSAGE);
        }
    }
}
