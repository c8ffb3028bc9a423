package io.aigw.runtime.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * Where keys' rate-limit counters live: {@code gateway.limits.*}.
 *
 * @param redisUrl     {@code gateway.limits.redis-url} (or {@code GATEWAY_REDIS_URL}): counters in
 *                     Redis, shared by replicas; empty: in this process's memory
 * @param redisPrefix  {@code gateway.limits.redis-prefix}: before each key id in Redis's key names
 * @param redisTimeout {@code gateway.limits.redis-timeout}: the longest a check waits on Redis
 * @param redisPool    {@code gateway.limits.redis-pool-size}: connections to Redis at most, opened as needed
 * @param onFailure    {@code gateway.limits.on-store-failure}: what a request gets while Redis cannot be asked
 */
public record RateLimitsConfig(Optional<URI> redisUrl, String redisPrefix, Duration redisTimeout, int redisPool,
                               StoreFailurePolicy onFailure) {

    static RateLimitsConfig read(Settings settings) {
        Optional<URI> url = settings.environment("GATEWAY_REDIS_URL").or(() -> settings.get("gateway.limits.redis-url"))
                .map(RateLimitsConfig::redisUrl);
        String policy = settings.get("gateway.limits.on-store-failure", "allow").strip().toLowerCase(Locale.ROOT);
        if (!policy.equals("allow") && !policy.equals("deny")) {
            throw new ConfigurationException("gateway.limits.on-store-failure must be 'allow' or 'deny', not '"
                    + policy + "'");
        }
        // As many as the requests that check at once under a heavy load: fewer, and the rest wait
        // their turn for a connection, a wait that reached the timeout at 256 callers and 64.
        int pool = settings.getInt("gateway.limits.redis-pool-size", 256);
        if (pool < 1) {
            throw new ConfigurationException("gateway.limits.redis-pool-size must be at least 1, not " + pool);
        }
        return new RateLimitsConfig(url, settings.get("gateway.limits.redis-prefix", "aigw:limits:"),
                settings.getDuration("gateway.limits.redis-timeout", Duration.ofMillis(500)), pool,
                StoreFailurePolicy.valueOf(policy.toUpperCase(Locale.ROOT)));
    }

    private static URI redisUrl(String text) {
        try {
            URI url = new URI(text.strip());
            if (!("redis".equals(url.getScheme()) || "rediss".equals(url.getScheme())) || url.getHost() == null) {
                throw new URISyntaxException(text, "not redis://host:port");
            }
            return url.getPort() > 0 ? url : new URI(url.getScheme(), url.getUserInfo(), url.getHost(), 6379,
                    url.getPath(), null, null);
        } catch (URISyntaxException e) {
            // The URL may hold a password: the message names the setting, not its value.
            throw new ConfigurationException("gateway.limits.redis-url (GATEWAY_REDIS_URL) must be a URL such as"
                    + " redis://127.0.0.1:6379 or rediss://user:password@host:6380/0.");
        }
    }
}
