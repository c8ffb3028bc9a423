package io.aigw.runtime.pool;

import io.aigw.runtime.plugin.UpstreamKey;
import java.time.Duration;
import java.util.Optional;

/**
 * One call's hold on the key chosen for it: counted in flight until {@link #close()}, which every
 * call ends with; what the call showed of the key is told before, by one of the verdicts.
 */
public final class Lease implements AutoCloseable {
    private final KeyPools pools;
    private final String provider;
    private final UpstreamKey key;
    private final KeyState state;
    private final boolean probe;

    Lease(KeyPools pools, String provider, UpstreamKey key, KeyState state, boolean probe) {
        this.pools = pools;
        this.provider = provider;
        this.key = key;
        this.state = state;
        this.probe = probe;
    }

    /** The key to call with. */
    public UpstreamKey key() {
        return key;
    }

    /** The upstream took the key: it answered, whatever it answered of the request itself. */
    public void answered(long tokens) {
        pools.answered(provider, key, state, tokens);
    }

    /** A 429: the key rests for {@code retryAfter}, or {@code gateway.pools.cooldown} when it says not. */
    public void rateLimited(Optional<Duration> retryAfter) {
        pools.rateLimited(provider, key, state, retryAfter);
    }

    /** A 401 or 403: the upstream refused the key. */
    public void refused(int status) {
        pools.refused(provider, key, state, status);
    }

    /** A 5xx, a timeout, a connection refused or broken: {@code reason} in a few words, never the key. */
    public void failed(String reason) {
        pools.failed(provider, key, state, reason);
    }

    @Override
    public void close() {
        state.release(probe);
    }
}
