package io.aigw.runtime.limits;

/** Where a key's request and token counts live: in this process, or in a store replicas share. */
public interface RateLimiter extends AutoCloseable {

    /**
     * Reserves one request and {@code tokens} tokens against the key's limits, or refuses them:
     * whole or not at all, atomically with every other reservation of the key.
     */
    Decision reserve(String keyId, Limits limits, long tokens);

    @Override
    void close();
}
