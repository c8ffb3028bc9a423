package io.aigw.runtime.limits;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.LogRecords;
import io.aigw.runtime.testing.PrivateRedis;
import io.aigw.runtime.testing.TestGateway;
import java.net.InetAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.logging.Level;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/**
 * Redis stopped under a running gateway and started again: with {@code on-store-failure: allow}
 * requests go on being served, with {@code deny} they get 503; either way the gateway says so once
 * in its log, counts the failures, and enforces the limits again when Redis is back, without a restart.
 */
public final class LimitStoreOutageTest {
    private static final String ANSWER = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[],"
            + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3,\"total_tokens\":8}}";
    private static final String LOGGER = "io.aigw.runtime.limits";

    @Test
    void allowKeepsServingDenyRefusesWith503AndBothEnforceAgainWhenRedisIsBack() throws Exception {
        try (PrivateRedis redis = PrivateRedis.start();
             MockWebServer upstream = answeringUpstream();
             TestGateway allowing = gateway(upstream, redis, "allow");
             TestGateway denying = gateway(upstream, redis, "deny");
             LogRecords logs = LogRecords.capture()) {
            String allowKey = key(allowing);
            String denyKey = key(denying);
            assertEquals("99", remaining(chat(allowing, allowKey)));
            assertEquals("99", remaining(chat(denying, denyKey)));

            redis.stop();
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> served = chat(allowing, allowKey);
                assertEquals(200, served.statusCode(), served.body());
                assertTrue(served.headers().firstValue("x-ratelimit-remaining-requests").isEmpty(),
                        "nothing to tell while the counters cannot be read");
                HttpResponse<String> refused = chat(denying, denyKey);
                assertEquals(503, refused.statusCode());
                assertTrue(refused.body().contains("\"code\":\"limits_unavailable\""), refused.body());
                assertEquals("1", refused.headers().firstValue("retry-after").orElseThrow());
            }
            assertEquals(2, logs.messages(Level.WARNING, LOGGER).size(), "one line per gateway and outage: "
                    + logs.messages(Level.WARNING, LOGGER));
            assertTrue(metrics(allowing).contains("gateway_limit_store_failures_total"), metrics(allowing));

            redis.startAgain();
            // A fresh Redis has no counts: the windows start again.
            awaitAnswer(allowing, allowKey, response -> "99".equals(remaining(response)));
            awaitAnswer(denying, denyKey, response -> response.statusCode() == 200 && "99".equals(remaining(response)));
            assertEquals(2, logs.messages(Level.INFO, LOGGER).stream().filter(line -> line.contains("answers again"))
                    .count(), logs.messages(Level.INFO, LOGGER).toString());
        }
    }

    @Test
    void aGatewayStartedWhileRedisIsDownStartsServesAsToldAndEnforcesOnceRedisIsUp() throws Exception {
        try (PrivateRedis redis = PrivateRedis.start();
             MockWebServer upstream = answeringUpstream()) {
            redis.stop();
            try (TestGateway denying = gateway(upstream, redis, "deny")) {
                String key = key(denying);
                assertEquals(503, chat(denying, key).statusCode());

                redis.startAgain();
                awaitAnswer(denying, key, response -> response.statusCode() == 200
                        && "99".equals(remaining(response)));
            }
        }
    }

    /** Asks until an answer passes {@code test}: the gateway tries Redis again once a second. */
    private static void awaitAnswer(TestGateway gateway, String key, Predicate<HttpResponse<String>> test)
            throws InterruptedException {
        long until = System.nanoTime() + Duration.ofSeconds(15).toNanos();
        HttpResponse<String> last = chat(gateway, key);
        while (!test.test(last)) {
            assertTrue(System.nanoTime() - until < 0, "not enforced again: " + last.statusCode() + " "
                    + last.headers().map());
            Thread.sleep(100);
            last = chat(gateway, key);
        }
    }

    private static String remaining(HttpResponse<String> response) {
        return response.headers().firstValue("x-ratelimit-remaining-requests").orElse(null);
    }

    private static String key(TestGateway gateway) {
        HttpResponse<String> created = KeysApi.of(gateway).create("{\"name\":\"limited\",\"rpm\":100}");
        assertEquals(201, created.statusCode(), created.body());
        return KeysApi.json(created.body()).getString("key");
    }

    private static HttpResponse<String> chat(TestGateway gateway, String key) {
        KeysApi api = KeysApi.of(gateway);
        return api.send(api.request("/api/v1/chat/completions", key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"openai/gpt-5\",\"messages\":[]}")));
    }

    private static String metrics(TestGateway gateway) {
        return gateway.send(HttpRequest.newBuilder(gateway.uri("/observe/metrics")).build()).body();
    }

    private static TestGateway gateway(MockWebServer upstream, PrivateRedis redis, String onFailure) {
        return TestGateway.start(Map.of("providers.openai.base-url", upstream.url("/v1").toString(),
                "gateway.access-log", "off", "gateway.limits.redis-url", redis.url(),
                "gateway.limits.on-store-failure", onFailure), Map.of("OPENAI_API_KEY", "sk-upstream"));
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
