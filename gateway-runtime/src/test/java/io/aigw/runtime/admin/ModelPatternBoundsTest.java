package io.aigw.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import java.io.IOException;
import java.net.InetAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.function.IntFunction;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What a key's allow-list may cost each of its requests: patterns are bounded in number and length
 * when they are written, model ids in length when they are asked for, and the longest id against the
 * most patterns built to make a backtracking matcher crawl is answered like any other request.
 */
public final class ModelPatternBoundsTest {
    private static final String ANSWER = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[],"
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
    void moreThan200PatternsOrAPatternOver300CharactersAreRefusedWhenWritten() {
        HttpResponse<String> tooMany = keys.create(key(patterns(201, i -> "openai/m" + i)));
        assertEquals(400, tooMany.statusCode(), tooMany.body());
        JsonObject error = KeysApi.json(tooMany.body()).getJsonObject("error");
        assertEquals("'models' lists 201 model ids or patterns, more than the 200 a key may have: use patterns"
                + " ('openai/*') to cover several models at once.", error.getString("message"));
        assertEquals("models", error.getString("param"));

        HttpResponse<String> tooLong = keys.create(key(patterns(1, i -> "openai/" + "m".repeat(294))));
        assertEquals(400, tooLong.statusCode(), tooLong.body());
        assertTrue(KeysApi.json(tooLong.body()).getJsonObject("error").getString("message")
                .contains("each at most 300 characters"), tooLong.body());

        assertEquals(201, keys.create(key(patterns(200, i -> "openai/%03d".formatted(i) + "m".repeat(290))))
                .statusCode());
        assertEquals(200, keys.listed().getJsonObject(0).getJsonArray("models").size(),
                "only the key at the bounds was stored, each of its patterns kept");
        assertEquals(1, keys.listed().size());
    }

    @Test
    void theLongestModelIdAgainstTheMostAdversarialPatternsIsAnsweredAndAMatchStillGoesThrough() {
        String crawling = "*a".repeat(149) + "b";
        String key = KeysApi.json(keys.create(key(patterns(200, i -> i == 199 ? "openai/*" : crawling))).body())
                .getString("key");

        HttpResponse<String> refused = chat(key, "a".repeat(300));
        assertEquals(403, refused.statusCode(), refused.body());
        assertTrue(refused.body().contains("\"code\":\"model_not_allowed\""), refused.body());

        upstream.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json").body(ANSWER).build());
        HttpResponse<String> allowed = chat(key, "openai/" + "a".repeat(293));
        assertEquals(200, allowed.statusCode(), allowed.body());
        assertEquals(1, upstream.getRequestCount());
    }

    @Test
    void aModelIdOver300CharactersIsRefusedWith400() {
        HttpResponse<String> refused = chat(TestGateway.KEY, "openai/" + "m".repeat(294));

        assertEquals(400, refused.statusCode(), refused.body());
        assertEquals("{\"error\":{\"message\":\"'model' is 301 characters long; the gateway accepts model ids of at"
                + " most 300.\",\"type\":\"invalid_request_error\",\"param\":\"model\",\"code\":null}}", refused.body());
        assertEquals(0, upstream.getRequestCount());
    }

    private HttpResponse<String> chat(String key, String model) {
        return keys.send(keys.request("/api/v1/chat/completions", key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model + "\",\"messages\":[]}")));
    }

    private static String key(JsonArrayBuilder models) {
        return Json.createObjectBuilder().add("name", "patterned").add("models", models).build().toString();
    }

    private static JsonArrayBuilder patterns(int count, IntFunction<String> pattern) {
        JsonArrayBuilder models = Json.createArrayBuilder();
        for (int i = 0; i < count; i++) {
            models.add(pattern.apply(i));
        }
        return models;
    }
}
