package io.aigw.runtime.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aigw.runtime.testing.LocalRedis;
import io.aigw.runtime.testing.TestGateway;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Two gateways that share Redis share what they learn of an upstream key: one's 429 cools the key for both. */
public final class PoolsAcrossReplicasTest {

    @Test
    void aCoolDownOneReplicaLearnsTheOtherKeeps() throws Exception {
        try (LocalRedis redis = LocalRedis.prefix();
             KeyedUpstream limited = new KeyedUpstream("limited");
             KeyedUpstream spare = new KeyedUpstream("spare");
             TestGateway first = replica(redis, limited, spare);
             TestGateway second = replica(redis, limited, spare)) {
            limited.answers(() -> KeyedUpstream.status(429, "Retry-After", "30"));

            for (int i = 0; i < 20 && limited.requests() == 0; i++) {
                assertEquals(200, first.chat(UpstreamPoolsTest.CHAT).statusCode());
            }
            assertEquals(1, limited.requests());

            long deadline = System.nanoTime() + 5_000_000_000L;
            while (!state(second, "limited").equals("cooling") && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals("cooling", state(second, "limited"), "the other replica learns of the cool-down");
            int spareBefore = spare.requests();
            for (int i = 0; i < 20; i++) {
                assertEquals(200, second.chat(UpstreamPoolsTest.CHAT).statusCode());
            }
            assertEquals(1, limited.requests(), "the other replica never called the cooling key");
            assertEquals(spareBefore + 20, spare.requests());
        }
    }

    private static String state(TestGateway gateway, String key) {
        HttpResponse<String> response = gateway.send(gateway.request("/admin/v1/upstreams").GET().build());
        return UpstreamPoolsTest.upstreamKey(response.body(), key).getString("state");
    }

    private static TestGateway replica(LocalRedis redis, KeyedUpstream limited, KeyedUpstream spare) {
        Map<String, String> config = new HashMap<>(Map.of("gateway.limits.redis-url", LocalRedis.URL,
                "gateway.limits.redis-prefix", redis.name(), "gateway.pools.shared-refresh", "50ms",
                "gateway.access-log", "off"));
        config.putAll(UpstreamPoolsTest.key(0, limited, 100));
        config.putAll(UpstreamPoolsTest.key(1, spare, 1));
        return TestGateway.start(config, Map.of());
    }
}
