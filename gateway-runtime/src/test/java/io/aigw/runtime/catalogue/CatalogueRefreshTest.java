package io.aigw.runtime.catalogue;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.TestGateway;
import java.net.InetAddress;
import java.net.http.HttpResponse;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code gateway.catalogue.refresh}: the model list the upstream gives beside the plugin's
 * catalogue, in {@code /api/v1/models} and in routing; a failed refresh keeps the last list.
 */
public final class CatalogueRefreshTest {
    private static final String ANSWER = "{\"id\":\"c\",\"object\":\"chat.completion\",\"choices\":[],"
            + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}";

    private final MockWebServer upstream = new MockWebServer();
    private final AtomicReference<MockResponse> models = new AtomicReference<>();
    private final AtomicInteger listRequests = new AtomicInteger();
    private TestGateway gateway;

    @BeforeEach
    void start() throws Exception {
        models.set(list("gpt-5", "gpt-next"));
        upstream.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                if (request.getRequestLine().startsWith("GET /v1/models ")) {
                    assertEquals("Bearer sk-upstream-openai", request.getHeaders().get("Authorization"));
                    listRequests.incrementAndGet();
                    return models.get();
                }
                return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json")
                        .body(ANSWER).build();
            }
        });
        upstream.start(InetAddress.getLoopbackAddress(), 0);
        gateway = TestGateway.start(Map.of("providers.openai.base-url", upstream.url("/v1").toString(),
                "gateway.catalogue.refresh", "100ms"), Map.of("OPENAI_API_KEY", "sk-upstream-openai"));
    }

    @AfterEach
    void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void aModelAddedUpstreamIsListedAndOneRemovedIsNeitherListedNorRouted() throws Exception {
        String listed = awaitModels(body -> body.contains("\"id\":\"openai/gpt-next\""));

        assertTrue(listed.contains("\"id\":\"openai/gpt-5\""), listed);
        assertFalse(listed.contains("\"id\":\"openai/gpt-5-mini\""), listed);
        assertTrue(listed.contains("{\"id\":\"openai/gpt-next\",\"object\":\"model\""), listed);
        assertEquals(200, gateway.chat(chat("openai/gpt-next")).statusCode());
        HttpResponse<String> removed = gateway.chat(chat("openai/gpt-5-mini"));
        assertEquals(404, removed.statusCode(), removed.body());
        assertTrue(removed.body().contains("\"code\":\"model_not_found\""), removed.body());

        models.set(list("gpt-5", "gpt-5-mini"));
        String after = awaitModels(body -> !body.contains("\"id\":\"openai/gpt-next\""));
        assertTrue(after.contains("\"id\":\"openai/gpt-5-mini\""), after);
        assertEquals(200, gateway.chat(chat("openai/gpt-5-mini")).statusCode());
    }

    @Test
    void aRefreshThatFailsKeepsTheLastList() throws Exception {
        awaitModels(body -> body.contains("\"id\":\"openai/gpt-next\""));

        models.set(new MockResponse.Builder().code(500).body("{\"error\":{\"message\":\"down\"}}").build());
        int before = listRequests.get();
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (listRequests.get() < before + 3 && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertTrue(listRequests.get() >= before + 3, "the refresh went on");
        String listed = models();
        assertTrue(listed.contains("\"id\":\"openai/gpt-next\"") && !listed.contains("\"id\":\"openai/gpt-5-mini\""),
                listed);
    }

    private String awaitModels(java.util.function.Predicate<String> expected) throws InterruptedException {
        long deadline = System.nanoTime() + 5_000_000_000L;
        String body = models();
        while (!expected.test(body) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            body = models();
        }
        assertTrue(expected.test(body), body);
        return body;
    }

    private String models() {
        HttpResponse<String> response = gateway.send(gateway.request("/api/v1/models").GET().build());
        assertEquals(200, response.statusCode());
        return response.body();
    }

    private static MockResponse list(String... ids) {
        StringBuilder body = new StringBuilder("{\"object\":\"list\",\"data\":[");
        for (int i = 0; i < ids.length; i++) {
            body.append(i == 0 ? "" : ",").append("{\"id\":\"").append(ids[i]).append("\",\"object\":\"model\"}");
        }
        return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json")
                .body(body.append("]}").toString()).build();
    }

    private static String chat(String model) {
        return "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    }
}
