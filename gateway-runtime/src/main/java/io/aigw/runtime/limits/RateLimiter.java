package io.aigw.runtime.limits;

/** Where a key's request, token and spend counts live: in this process, or in a store replicas share. */
public interface RateLimiter extends AutoCloseable {

    /**
     * Reserves one request, {@code tokens} tokens and the claim's cost against the key's limits and
     * budget, or refuses them: whole or not at all, atomically with every other reservation of the key.
     */
    Decision reserve(String keyId, Limits limits, long tokens, BudgetClaim budget);

    /** Reserves against the key's limits alone. */
    default Decision reserve(String keyId, Limits limits, long tokens) {
        return reserve(keyId, limits, tokens, BudgetClaim.NONE);
    }

    @Override
    void close();
}
