package io.aigw.runtime.anthropic;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.aigw.runtime.testing.AnthropicUpstream;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.TestGateway;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code POST /anthropic/v1/messages}: Anthropic's answers and streams relayed to the byte, both ways. */
public final class MessagesRelayTest {
    /** Unknown fields, system, tools and thinking, exact number texts, in an odd order. */
    static final String BODY = "{\"max_tokens\": 1024, \"system\": [{\"type\": \"text\", \"text\": \"Be brief.\","
            + " \"cache_control\": {\"type\": \"ephemeral\"}}], \"model\": \"%s\", \"messages\": [{\"role\": \"user\","
            + " \"content\": \"H\\u00e9, what's the weather?\"}], \"thinking\": {\"type\": \"enabled\", \"budget_tokens\":"
            + " 1.0e3}, \"tools\": [{\"name\": \"get_weather\", \"input_schema\": {\"type\": \"object\"}}],"
            + " \"x_unknown\": [null]%s}";

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().alsoFor("anthropic");

    static String body(String model, boolean stream) {
        return BODY.formatted(model, stream ? ", \"stream\": true" : "");
    }

    static HttpRequest.Builder messages(TestGateway gateway, String body) {
        return HttpRequest.newBuilder(gateway.uri("/anthropic/v1/messages"))
                .header("x-api-key", TestGateway.KEY)
                .header("anthropic-version", "2023-06-01")
                .header("content-type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body));
    }

    @Test
    void aWholeAnswerComesBackAsItCameAndTheRequestReachesAnthropicWithOnlyItsKey() throws Exception {
        front.upstream().enqueue(AnthropicUpstream.message(AnthropicUpstream.MESSAGE));

        HttpResponse<String> response = front.gateway().send(messages(front.gateway(),
                body("claude-sonnet-4-5", false)).build());

        assertEquals(200, response.statusCode(), response.body());
        assertEquals(AnthropicUpstream.MESSAGE, response.body());
        RecordedRequest received = front.upstream().takeRequest(5, TimeUnit.SECONDS);
        assertEquals("POST /v1/messages HTTP/1.1", received.getRequestLine());
        assertEquals(body("claude-sonnet-4-5", false), received.getBody().utf8());
        assertEquals("sk-upstream-anthropic", received.getHeaders().get("x-api-key"));
        assertNull(received.getHeaders().get("Authorization"));
        assertEquals("2023-06-01", received.getHeaders().get("anthropic-version"));
    }

    @Test
    void theUpstreamsRequestIdAndAnthropicHeadersReachTheCallerOfAnAnswerAndOfAStream() {
        front.upstream().enqueue(AnthropicUpstream.message(AnthropicUpstream.MESSAGE));
        front.upstream().enqueue(AnthropicUpstream.stream(AnthropicUpstream.STREAM));

        for (boolean stream : new boolean[] {false, true}) {
            HttpResponse<String> response = front.gateway().send(messages(front.gateway(),
                    body("claude-sonnet-4-5", stream)).build());

            assertEquals(200, response.statusCode(), response.body());
            assertEquals(AnthropicUpstream.REQUEST_ID, response.headers().firstValue("request-id").orElseThrow());
            assertEquals("27796668-7351-40ac-acc4-024aee8995a5",
                    response.headers().firstValue("anthropic-organization-id").orElseThrow());
            assertEquals("49", response.headers().firstValue("anthropic-ratelimit-requests-remaining").orElseThrow());
        }
    }

    @Test
    void theWorkspaceKeyIsTakenAsABearerTokenAndNeitherFormGoesUpstream() throws Exception {
        front.upstream().enqueue(AnthropicUpstream.message(AnthropicUpstream.MESSAGE));

        HttpResponse<String> response = front.gateway().send(HttpRequest.newBuilder(
                        front.gateway().uri("/anthropic/v1/messages"))
                .header("Authorization", "Bearer " + TestGateway.KEY)
                .POST(HttpRequest.BodyPublishers.ofString(body("claude-sonnet-4-5", false))).build());

        assertEquals(200, response.statusCode(), response.body());
        RecordedRequest received = front.upstream().takeRequest(5, TimeUnit.SECONDS);
        assertEquals("sk-upstream-anthropic", received.getHeaders().get("x-api-key"));
        assertNull(received.getHeaders().get("Authorization"));
    }

    @Test
    void aStreamComesBackAsItCameEventByEvent() throws Exception {
        front.upstream().enqueue(AnthropicUpstream.stream(AnthropicUpstream.STREAM));

        HttpResponse<String> response = front.gateway().send(messages(front.gateway(),
                body("claude-sonnet-4-5", true)).build());

        assertEquals(200, response.statusCode(), response.body());
        assertEquals(AnthropicUpstream.STREAM, response.body());
        assertEquals("text/event-stream", response.headers().firstValue("Content-Type").orElseThrow());
        RecordedRequest received = front.upstream().takeRequest(5, TimeUnit.SECONDS);
        assertEquals(body("claude-sonnet-4-5", true), received.getBody().utf8());
        assertEquals("text/event-stream", received.getHeaders().get("Accept"));
    }
}
