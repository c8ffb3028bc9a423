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
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A key's policies hold on the Responses API as on chat: its allowed models, its requests a minute
 * (the calls about a stored response count too) and its budget, each refusing before any upstream
 * is called.
 */
public final class ResponsesPoliciesTest {
    private static final List<ResponsesUpstream.Item> HELLO = List.of(new ResponsesUpstream.Message("msg_1", "Hi"));

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().config("gateway.access-log", "off");

    @Test
    void aModelOutsideTheKeysAllowListIsRefusedWith403() {
        String key = key("{\"name\":\"xai only\",\"models\":[\"xai/*\"]}");

        HttpResponse<String> answer = create(key, "{\"model\":\"openai/gpt-5\",\"input\":\"Hi\"}");

        assertEquals(403, answer.statusCode(), answer.body());
        assertEquals("permission_error", error(answer).getString("type"));
        assertEquals(0, front.upstream().getRequestCount());
    }

    @Test
    void theCallsAboutAStoredResponseCountAgainstTheKeysRequestsAMinute() {
        String key = key("{\"name\":\"two a minute\",\"rpm\":2}");
        front.upstream().enqueue(ResponsesUpstream.plain("resp_1", "gpt-5", HELLO, new Usage(3, 0, 1, 0)));
        front.upstream().enqueue(ResponsesUpstream.plain("resp_1", "gpt-5", HELLO, new Usage(3, 0, 1, 0)));
        assertEquals(200, create(key, "{\"model\":\"openai/gpt-5\",\"input\":\"Hi\"}").statusCode());
        assertEquals(200, retrieve(key, "resp_1").statusCode());

        HttpResponse<String> third = retrieve(key, "resp_1");
        HttpResponse<String> fourth = create(key, "{\"model\":\"openai/gpt-5\",\"input\":\"Hi\"}");

        for (HttpResponse<String> refused : List.of(third, fourth)) {
            assertEquals(429, refused.statusCode(), refused.body());
            assertEquals("rate_limit_exceeded", error(refused).getString("code"), refused.body());
            assertTrue(refused.headers().firstValue("Retry-After").isPresent());
        }
        assertEquals(2, front.upstream().getRequestCount());
    }

    @Test
    void aRequestThatMayCostMoreThanTheBudgetLeftIsRefusedWith429() {
        String key = key("{\"name\":\"one cent\",\"budget_usd\":0.01}");

        HttpResponse<String> answer = create(key, "{\"model\":\"openai/gpt-5\",\"input\":\"Hi\","
                + "\"max_output_tokens\":100000}");

        assertEquals(429, answer.statusCode(), answer.body());
        assertEquals("insufficient_quota", error(answer).getString("code"), answer.body());
        assertEquals(0, front.upstream().getRequestCount());
    }

    private static JsonObject error(HttpResponse<String> answer) {
        return KeysApi.json(answer.body()).getJsonObject("error");
    }

    private String key(String body) {
        HttpResponse<String> created = KeysApi.of(front.gateway()).create(body);
        assertEquals(201, created.statusCode(), created.body());
        return KeysApi.json(created.body()).getString("key");
    }

    private HttpResponse<String> create(String key, String body) {
        return front.gateway().send(front.gateway().request("/api/v1/responses")
                .setHeader("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private HttpResponse<String> retrieve(String key, String id) {
        return front.gateway().send(front.gateway().request("/api/v1/responses/" + id)
                .setHeader("Authorization", "Bearer " + key).GET().build());
    }
}
