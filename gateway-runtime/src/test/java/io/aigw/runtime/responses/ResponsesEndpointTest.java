package io.aigw.runtime.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.ResponsesUpstream;
import io.aigw.runtime.testing.ResponsesUpstream.Usage;
import jakarta.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code POST /api/v1/responses} relays OpenAI's Responses API byte for byte, plain and streamed,
 * with only the model rewritten on the way up; bodies it cannot forward and providers that do not
 * serve the API get a 400 in the OpenAI shape, and nothing reaches an upstream.
 */
public final class ResponsesEndpointTest {
    private static final Usage USAGE = new Usage(12, 0, 5, 0);
    private static final List<ResponsesUpstream.Item> HELLO = List.of(new ResponsesUpstream.Message("msg_1", "Hello there"));

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().config("gateway.access-log", "off")
            .forEveryProvider();

    @Test
    void aPlainResponseComesBackByteForByteAndTheUpstreamGetsTheBodyWithOnlyItsModelChanged() throws Exception {
        front.upstream().enqueue(ResponsesUpstream.plain("resp_1", "gpt-5-2025-08-07", HELLO, USAGE));
        String body = "{\"model\":\"openai/gpt-5\", \"input\":\"Say hello\",\"store\":false,"
                + "\"instructions\":\"Be brief\",\"reasoning\":{\"effort\":\"low\"},\"x_unknown\":[1.50,\"\\u00e9\"]}";

        HttpResponse<String> answer = post(body);

        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals(ResponsesUpstream.response("resp_1", "gpt-5-2025-08-07", HELLO, USAGE), answer.body());
        assertEquals("openai", answer.headers().firstValue("X-Gateway-Provider").orElseThrow());
        RecordedRequest sent = front.upstream().takeRequest(5, TimeUnit.SECONDS);
        assertEquals("POST /openai/v1/responses HTTP/1.1", sent.getRequestLine());
        assertEquals("Bearer sk-upstream-openai", sent.getHeaders().get("Authorization"));
        assertEquals(body.replace("openai/gpt-5", "gpt-5"), sent.getBody().utf8());
    }

    @Test
    void aStreamedResponseComesBackEventForEventWithNoDoneMarker() throws Exception {
        List<String> events = ResponsesUpstream.events("resp_2", "gpt-5-2025-08-07", HELLO, USAGE);
        front.upstream().enqueue(ResponsesUpstream.streamed("resp_2", "gpt-5-2025-08-07", HELLO, USAGE));

        HttpResponse<String> answer = post("{\"model\":\"openai/gpt-5\",\"input\":[{\"role\":\"user\","
                + "\"content\":\"Say hello\"}],\"stream\":true}");

        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals(String.join("", events), answer.body());
        assertEquals("text/event-stream", answer.headers().firstValue("Content-Type").orElseThrow());
        RecordedRequest sent = front.upstream().takeRequest(5, TimeUnit.SECONDS);
        assertEquals("text/event-stream", sent.getHeaders().get("Accept"));
    }

    @Test
    void aProviderThatServesTheResponsesApiUnderItsOwnPrefixGetsItsModelId() throws Exception {
        front.upstream().enqueue(ResponsesUpstream.plain("resp_x", "grok-4", HELLO, USAGE));

        HttpResponse<String> answer = post("{\"model\":\"xai/grok-4\",\"input\":\"Hi\"}");

        assertEquals(200, answer.statusCode(), answer.body());
        RecordedRequest sent = front.upstream().takeRequest(5, TimeUnit.SECONDS);
        assertEquals("POST /xai/v1/responses HTTP/1.1", sent.getRequestLine());
        assertEquals("{\"model\":\"grok-4\",\"input\":\"Hi\"}", sent.getBody().utf8());
    }

    @Test
    void modelsOfProvidersThatDoNotServeTheResponsesApiAreRefusedWith400() {
        for (String model : List.of("gemini/gemini-2.5-pro", "anthropic/claude-sonnet-4-5")) {
            HttpResponse<String> answer = post("{\"model\":\"" + model + "\",\"input\":\"Hi\"}");

            assertEquals(400, answer.statusCode(), answer.body());
            JsonObject error = KeysApi.json(answer.body()).getJsonObject("error");
            assertEquals("unsupported_endpoint", error.getString("code"), answer.body());
            assertEquals("invalid_request_error", error.getString("type"));
            String provider = model.substring(0, model.indexOf('/'));
            assertTrue(error.getString("message").contains("'" + provider + "'")
                    && error.getString("message").contains("/api/v1/responses"), error.toString());
        }
        assertEquals(0, front.upstream().getRequestCount());
    }

    @Test
    void malformedBodiesAreRefusedWith400NamingTheField() {
        record Case(String body, String param, String says) {
        }
        for (Case c : List.of(
                new Case("{\"input\":\"Hi\"}", "model", "must name a 'model'"),
                new Case("{\"model\":\"\",\"input\":\"Hi\"}", "model", "must not be empty"),
                new Case("{\"model\":7,\"input\":\"Hi\"}", "model", "must be a string"),
                new Case("{\"model\":\"openai/gpt-5\",\"input\":{\"role\":\"user\"}}", "input", "string or an array"),
                new Case("{\"model\":\"openai/gpt-5\",\"input\":\"Hi\",\"stream\":\"yes\"}", "stream", "true or false"),
                new Case("{\"model\":\"openai/gpt-5\",\"input\":\"Hi\",\"previous_response_id\":5}",
                        "previous_response_id", "a string"),
                new Case("{\"model\":\"openai/gpt-5\",\"model\":\"openai/gpt-5\"}", "model", "more than once"),
                new Case("[{\"model\":\"openai/gpt-5\"}]", null, "must be a JSON object"),
                new Case("{\"model\":\"openai/gpt-5\",\"input\":\"Hi\"", null, ""))) {
            HttpResponse<String> answer = post(c.body());

            assertEquals(400, answer.statusCode(), c.body() + " -> " + answer.body());
            JsonObject error = KeysApi.json(answer.body()).getJsonObject("error");
            assertEquals("invalid_request_error", error.getString("type"), answer.body());
            if (c.param() != null) {
                assertEquals(c.param(), error.getString("param"), answer.body());
            }
            assertTrue(error.getString("message").contains(c.says()), answer.body());
        }
        assertEquals(0, front.upstream().getRequestCount());
    }

    private HttpResponse<String> post(String body) {
        return front.gateway().send(front.gateway().request("/api/v1/responses")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }
}
