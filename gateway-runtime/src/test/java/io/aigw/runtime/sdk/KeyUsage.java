package io.aigw.runtime.sdk;

import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.util.concurrent.TimeUnit;

/**
 * What the usage report ({@code GET /admin/v1/usage?group_by=key}) says one workspace key spent:
 * its requests, tokens and cost (compared by value: {@code 0.00211600} is {@code 0.002116}), read
 * once the records of {@code requests} requests are written (they are written off the request
 * thread).
 */
record KeyUsage(long requests, long promptTokens, long completionTokens, long totalTokens, BigDecimal costUsd) {
    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** A row of tokens and their cost as a test expects it. */
    static KeyUsage of(long requests, long promptTokens, long completionTokens, String costUsd) {
        return new KeyUsage(requests, promptTokens, completionTokens, promptTokens + completionTokens,
                new BigDecimal(costUsd).stripTrailingZeros());
    }

    /** The report's row for the key {@code keyId}, waiting up to ten seconds for {@code requests} requests. */
    static KeyUsage reported(TestGateway gateway, String keyId, long requests) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT_NANOS;
        KeyUsage usage = read(gateway, keyId);
        while (usage.requests() < requests && System.nanoTime() < deadline) {
            Thread.sleep(50);
            usage = read(gateway, keyId);
        }
        return usage;
    }

    private static KeyUsage read(TestGateway gateway, String keyId) {
        KeysApi api = KeysApi.of(gateway);
        JsonObject report = KeysApi.json(api.send(api.request("/admin/v1/usage?group_by=key", TestGateway.KEY)
                .GET()).body());
        return report.getJsonArray("data").stream().map(JsonValue::asJsonObject)
                .filter(row -> row.getString("key_id").equals(keyId)).findFirst()
                .map(row -> new KeyUsage(row.getJsonNumber("requests").longValueExact(),
                        row.getJsonNumber("prompt_tokens").longValueExact(),
                        row.getJsonNumber("completion_tokens").longValueExact(),
                        row.getJsonNumber("total_tokens").longValueExact(),
                        new BigDecimal(row.getString("cost_usd")).stripTrailingZeros()))
                .orElse(new KeyUsage(0, 0, 0, 0, BigDecimal.ZERO));
    }
}
