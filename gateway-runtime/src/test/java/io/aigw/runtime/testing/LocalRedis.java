package io.aigw.runtime.testing;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.UUID;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The shared Redis on 127.0.0.1:6379, used under a key prefix of the test's own: other sessions use
 * the same server, so nothing here flushes it; {@link #close()} deletes this prefix's keys alone.
 *
 * <p>When Redis cannot be reached, a test on a laptop is skipped with the reason; in CI
 * ({@code CI=true}), where {@code .ci/run} starts Redis, it fails, as {@link LocalPostgres} decides.
 */
public final class LocalRedis implements AutoCloseable {
    public static final String URL = "redis://127.0.0.1:6379";

    private final String prefix;

    private LocalRedis(String prefix) {
        this.prefix = prefix;
    }

    /** A fresh prefix on the shared Redis, or a skip (a laptop) or failure (CI) when it is not there. */
    public static LocalRedis prefix() {
        return prefix("127.0.0.1", 6379, System.getenv());
    }

    static LocalRedis prefix(String host, int port, Map<String, String> environment) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 2000);
        } catch (IOException e) {
            LocalPostgres.skipOrFail("Redis is not reachable at " + host + ":" + port + ": " + e.getMessage()
                    + " (start it with: redis-server --port " + port + ")", environment, e);
        }
        return new LocalRedis("aigw-test:" + UUID.randomUUID().toString().substring(0, 8) + ":");
    }

    /** What {@code gateway.limits.redis-prefix} takes: this test's own. */
    public String name() {
        return prefix;
    }

    @Override
    public void close() {
        try (RedisClient redis = RedisClient.create(URL)) {
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> page = redis.scan(cursor, new ScanParams().match(prefix + "*").count(500));
                page.getResult().forEach(redis::del);
                cursor = page.getCursor();
            } while (!cursor.equals(ScanParams.SCAN_POINTER_START));
        }
    }
}
