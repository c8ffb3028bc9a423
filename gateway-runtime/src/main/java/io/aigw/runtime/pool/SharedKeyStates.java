package io.aigw.runtime.pool;

import io.aigw.runtime.config.PoolsConfig;
import io.aigw.runtime.config.RateLimitsConfig;

/**
 * Where the replicas of a gateway tell each other of keys that cool down or are ejected: Redis,
 * when {@code gateway.limits.redis-url} names one; else nowhere, and each replica learns alone.
 */
interface SharedKeyStates extends AutoCloseable {

    /** Nothing shared: this replica learns alone. */
    SharedKeyStates NONE = new SharedKeyStates() {
        @Override
        public void cooling(String provider, String key, long until) {
        }

        @Override
        public void ejected(String provider, String key, long until) {
        }

        @Override
        public void close() {
        }
    };

    /** Tells the others a key cools down until {@code until} (epoch milliseconds); returns at once. */
    void cooling(String provider, String key, long until);

    /** Tells the others a key is ejected until {@code until}; returns at once. */
    void ejected(String provider, String key, long until);

    @Override
    void close();

    /** Redis when configured, reading what the others shared into {@code pools} every refresh. */
    static SharedKeyStates of(RateLimitsConfig redis, PoolsConfig config, KeyPools pools) {
        return redis.redisUrl().<SharedKeyStates>map(url -> new RedisKeyStates(url, redis.redisPrefix() + "upstream:",
                redis.redisTimeout(), config.sharedRefresh(), pools)).orElse(NONE);
    }
}
