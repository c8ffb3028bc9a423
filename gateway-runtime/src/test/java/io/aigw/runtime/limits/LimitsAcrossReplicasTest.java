package io.aigw.runtime.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.LocalRedis;
import io.aigw.runtime.testing.SharedStores;
import io.aigw.runtime.testing.TestGateway;
import java.net.InetAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two gateways behind one imagined load balancer, sharing one PostgreSQL (the keys) and one Redis
 * (the counters), enforce one limit between them, not one each. Needs both services: skipped on a
 * laptop without them, failed in CI.
 */
public final class LimitsAcrossReplicasTest {
    private static final String ANSWER = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[],"
            + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3,\"total_tokens\":8}}";
    @RegisterExtension
    static final SharedStores STORES = new SharedStores();

    @Test
    void aKeyWithRpm50GetsExactly50Of200ConcurrentRequestsSpreadOverTwoReplicas() throws Exception {
        try (MockWebServer upstream = answeringUpstream();
             TestGateway a = replica(upstream);
             TestGateway b = replica(upstream)) {
            HttpResponse<String> created = KeysApi.of(a).create("{\"name\":\"shared\",\"rpm\":50}");
            assertEquals(201, created.statusCode(), created.body());
            String key = KeysApi.json(created.body()).getString("key");

            List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
            for (int i = 0; i < 200; i++) {
                TestGateway replica = i % 2 == 0 ? a : b;
                sent.add(replica.client().sendAsync(KeysApi.of(replica).request("/api/v1/chat/completions", key)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"openai/gpt-5\",\"messages\":[]}"))
                        .build(), HttpResponse.BodyHandlers.ofString()));
            }
            Map<Integer, Long> statuses = sent.stream().map(CompletableFuture::join)
                    .collect(Collectors.groupingBy(HttpResponse::statusCode, Collectors.counting()));

            assertEquals(Map.of(200, 50L, 429, 150L), statuses);
            assertEquals(50, upstream.getRequestCount(), "only the admitted requests reached the upstream");
            HttpResponse<String> after = KeysApi.of(b).send(KeysApi.of(b).request("/api/v1/chat/completions", key)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"openai/gpt-5\",\"messages\":[]}")));
            assertEquals(429, after.statusCode());
            assertEquals("0", after.headers().firstValue("x-ratelimit-remaining-requests").orElseThrow());
            assertEquals("50", after.headers().firstValue("x-ratelimit-limit-requests").orElseThrow());
            assertTrue(after.body().contains("\"code\":\"rate_limit_exceeded\""), after.body());
        }
    }

    private static TestGateway replica(MockWebServer upstream) {
        return TestGateway.start(Map.of("providers.openai.base-url", upstream.url("/v1").toString(),
                "gateway.database.url", STORES.database().url(), "gateway.database.user", STORES.database().user(),
                "gateway.access-log", "off", "gateway.limits.redis-prefix", STORES.redis().name()),
                Map.of("OPENAI_API_KEY", "sk-upstream", "GATEWAY_REDIS_URL", LocalRedis.URL));
    }

    private static MockWebServer answeringUpstream() throws Exception {
        MockWebServer upstream = new MockWebServer();
        upstream.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                return new MockResponse.Builder().addHeader("Content-Type", "application/json").body(ANSWER).build();
            }
        });
        upstream.start(InetAddress.getLoopbackAddress(), 0);
        return upstream;
    }
}
