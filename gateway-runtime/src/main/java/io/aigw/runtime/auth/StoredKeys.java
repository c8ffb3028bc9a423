package io.aigw.runtime.auth;

import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.StoreUnavailableException;
import io.aigw.runtime.waits.Waits;
import io.helidon.common.context.Context;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Workspace keys from the store, behind a short cache so the hot path rarely reaches the database.
 * An answer (found or not) is reused for at most the cache time, which is therefore also the
 * longest a revoked key keeps working on any replica. Unknown keys are cached too, so a caller
 * guessing keys does not turn into database load; the cache is bounded and simply starts over
 * when full.
 *
 * <p>While the database cannot be asked, a key found valid within the outage time keeps working
 * on its cached answer; nothing can be revoked meanwhile, since revoking needs the database too.
 * Any other key cannot be told valid or not, and its check fails with the store's
 * {@link StoreUnavailableException}.
 */
public final class StoredKeys implements WorkspaceKeys {
    private static final int MAX_CACHED = 10_000;

    private final Optional<MasterKey> master;
    private final GatewayStore store;
    private final long cacheNanos;
    private final long outageNanos;
    private final Map<String, Cached> cache = new ConcurrentHashMap<>();
    /** Bumped by {@link #forgetCached()}; an answer read from the store before the bump is stale. */
    private final AtomicLong generation = new AtomicLong();

    /**
     * @param cacheTime  how long an answer is reused: {@code gateway.keys.cache-ttl}
     * @param outageTime how long after its last check a valid key keeps working while the database
     *                   cannot be asked: {@code gateway.keys.outage-ttl}
     */
    public StoredKeys(Optional<MasterKey> master, GatewayStore store, Duration cacheTime, Duration outageTime) {
        this.master = master;
        this.store = store;
        this.cacheNanos = cacheTime.toNanos();
        this.outageNanos = outageTime.toNanos();
    }

    /**
     * @throws StoreUnavailableException when the database cannot be asked and no answer that may
     *                                   stand in for it is cached
     */
    @Override
    public Optional<Caller> authenticate(String presentedKey) {
        return lookUp(presentedKey, null);
    }

    /** As {@link #authenticate(String)}; a lookup in the store is a wait the request's {@link Waits} hear of. */
    @Override
    public Optional<Caller> authenticate(String presentedKey, Context request) {
        return lookUp(presentedKey, request);
    }

    /** @param request the request's context, or null for a lookup no request waits on */
    private Optional<Caller> lookUp(String presentedKey, Context request) {
        byte[] presentedHash = MasterKey.sha256(presentedKey);
        Optional<Caller> caller = master.flatMap(key -> key.authenticateHashed(presentedHash));
        if (caller.isPresent()) {
            return caller;
        }
        String hash = MasterKey.hex(presentedHash);
        long now = System.nanoTime();
        // Read before the store is asked: a lookup racing a revocation on this replica then
        // caches its (possibly pre-revocation) answer under the old generation, which the next
        // request ignores, instead of keeping the key alive for a whole cache time.
        long current = generation.get();
        Cached cached = cache.get(hash);
        if (cached != null && cached.generation() == current && now - cached.loadedAt() <= cacheNanos) {
            return cached.caller();
        }
        Optional<Caller> found;
        // Looked for only now: a request whose key was cached has no wait to tell of.
        Waits waits = request == null ? Waits.NONE : request.get(Waits.class).orElse(Waits.NONE);
        try (Waits.Wait lookup = waits.begin(Waits.What.KEY_LOOKUP)) {
            found = store.findKey(hash).filter(key -> !key.revoked())
                    .map(key -> new Caller(key.id(), key.admin(), key.policy(), key.name()));
        } catch (StoreUnavailableException e) {
            if (cached != null && cached.generation() == current && cached.caller().isPresent()
                    && now - cached.loadedAt() <= outageNanos) {
                return cached.caller();
            }
            throw e;
        }
        if (cache.size() >= MAX_CACHED) {
            cache.clear();
        }
        cache.put(hash, new Cached(found, now, current));
        return found;
    }

    /** Forgets every cached answer on this replica, so a revocation made here applies at once. */
    public void forgetCached() {
        generation.incrementAndGet();
        cache.clear();
    }

    private record Cached(Optional<Caller> caller, long loadedAt, long generation) {
    }
}
