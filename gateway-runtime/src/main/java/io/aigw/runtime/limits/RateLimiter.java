package io.aigw.runtime.limits;

import io.aigw.runtime.config.RateLimitsConfig;
import io.aigw.runtime.waits.Waits;
import io.helidon.common.context.Context;

/** Where a key's request, token and spend counts live: in this process, or in a store replicas share. */
public interface RateLimiter extends AutoCloseable {

    /**
     * Reserves one request, {@code tokens} tokens and the claim's cost against the key's limits and
     * budget, or refuses them: whole or not at all, atomically with every other reservation of the key.
     */
    Decision reserve(String keyId, Limits limits, long tokens, BudgetClaim budget);

    /**
     * {@link #reserve(String, Limits, long, BudgetClaim)} for a request, telling the {@link Waits} in
     * its context, when it has one, of a wait on a shared store; counters in memory make none.
     */
    default Decision reserve(String keyId, Limits limits, long tokens, BudgetClaim budget, Context request) {
        return reserve(keyId, limits, tokens, budget);
    }

    /** Reserves against the key's limits alone. */
    default Decision reserve(String keyId, Limits limits, long tokens) {
        return reserve(keyId, limits, tokens, BudgetClaim.NONE);
    }

    /**
     * Counters in Redis when {@code gateway.limits.redis-url} names one, else in memory; a key's spend
     * is rebuilt from {@code ledger} (the usage records) where they have no count of it.
     *
     * @param storeFailure told of each check the Redis store could not answer
     */
    static RateLimiter of(RateLimitsConfig config, Runnable storeFailure, SpendLedger ledger) {
        return config.redisUrl().<RateLimiter>map(url -> new RedisLimiter(url, config.redisPrefix(),
                config.redisTimeout(), config.redisPool(), config.onFailure(), storeFailure, ledger))
                .orElseGet(() -> new LocalLimiter(ledger));
    }

    @Override
    void close();
}
