package io.aigw.runtime.pool;

import io.aigw.runtime.config.PoolsConfig;
import io.aigw.runtime.config.RateLimitsConfig;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.plugin.UpstreamKey;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The health of every provider's upstream keys, and the choice of a key for each call
 * ({@link KeyChoice}). A key's state is known by its provider's and its own name, so it outlives
 * reloads that keep the key; a reload forgets the refusals (the operator may have fixed the key).
 * With Redis configured, cool-downs and ejections are shared with the other replicas
 * ({@link SharedKeyStates}).
 */
public final class KeyPools implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(KeyPools.class.getName());

    private final PoolsConfig config;
    private final Map<String, Map<String, KeyState>> states = new ConcurrentHashMap<>();
    private final SharedKeyStates shared;
    private boolean installedOnce;

    /** A key this gateway knows, with its state. */
    record KnownKey(String provider, String name, KeyState state) {
    }

    /** One key as the admin API shows it: never its secret. */
    public record KeyReport(String name, int weight, KeyHealth state, Optional<Long> until, int inFlight,
                            Optional<String> lastError, Optional<Long> lastErrorAt) {
    }

    /** Pools whose states only this replica knows. */
    public KeyPools(PoolsConfig config) {
        this.config = config;
        this.shared = SharedKeyStates.NONE;
    }

    /** Pools that share cool-downs and ejections through {@code redis}'s store, when it names one. */
    public KeyPools(PoolsConfig config, RateLimitsConfig redis) {
        this.config = config;
        this.shared = SharedKeyStates.of(redis, config, this);
    }

    /** A routing snapshot of {@code providers} becomes current; after the first, a reload forgets refusals. */
    public synchronized void install(Collection<Provider> providers) {
        for (Provider provider : providers) {
            for (UpstreamKey key : provider.keys()) {
                KeyState state = state(provider.name(), key.name());
                if (installedOnce) {
                    state.forgetRefusal();
                }
            }
        }
        installedOnce = true;
    }

    /**
     * Chooses a key of {@code provider} for one call and takes it; empty when none may be chosen
     * (cooling, refused, ejected, on probation under a probe, or tried already).
     *
     * @param session the request's session, or null
     * @param tried   names of the keys this request tried already
     */
    public Optional<Lease> choose(Provider provider, String session, Set<String> tried) {
        List<UpstreamKey> keys = provider.keys();
        if (keys.isEmpty()) {
            return Optional.empty();
        }
        KeyState[] keyStates = states(provider);
        long now = System.currentTimeMillis();
        ThreadLocalRandom random = ThreadLocalRandom.current();
        // A probe taken by another request between the choice and the take: choose again without it.
        for (int round = 0; round < keys.size(); round++) {
            int chosen = KeyChoice.choose(keys, keyStates, now, session, tried, random);
            if (chosen < 0) {
                return Optional.empty();
            }
            KeyState.Taken taken = keyStates[chosen].take(now);
            if (taken != KeyState.Taken.REFUSED) {
                return Optional.of(new Lease(this, provider.name(), keys.get(chosen), keyStates[chosen],
                        taken == KeyState.Taken.PROBING));
            }
        }
        return Optional.empty();
    }

    /** Whether a call to {@code provider} may be made now: one of its keys may be chosen. */
    public boolean usable(Provider provider) {
        if (!provider.hasKey()) {
            return false;
        }
        long now = System.currentTimeMillis();
        for (KeyState state : states(provider)) {
            if (state.choosable(now)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Why none of {@code provider}'s keys may be chosen: {@link KeyHealth#COOLING} when every one
     * cools down, {@link KeyHealth#FAILED} when every one was refused, else {@link KeyHealth#EJECTED}.
     */
    public KeyHealth unusable(Provider provider) {
        long now = System.currentTimeMillis();
        boolean cooling = true;
        boolean failed = true;
        for (KeyState state : states(provider)) {
            KeyHealth health = state.health(now);
            cooling &= health == KeyHealth.COOLING;
            failed &= health == KeyHealth.FAILED;
        }
        return cooling ? KeyHealth.COOLING : failed ? KeyHealth.FAILED : KeyHealth.EJECTED;
    }

    /** How long until the first of {@code provider}'s cooling keys may be called again. */
    public Duration coolingFor(Provider provider) {
        long now = System.currentTimeMillis();
        long soonest = Long.MAX_VALUE;
        for (KeyState state : states(provider)) {
            if (state.coolingUntil() > now) {
                soonest = Math.min(soonest, state.coolingUntil());
            }
        }
        return Duration.ofMillis(soonest == Long.MAX_VALUE ? 0 : soonest - now);
    }

    /** The keys of {@code provider} as they stand, in its order. */
    public List<KeyReport> report(Provider provider) {
        long now = System.currentTimeMillis();
        KeyState[] keyStates = states(provider);
        List<KeyReport> reports = new ArrayList<>();
        for (int i = 0; i < keyStates.length; i++) {
            KeyState state = keyStates[i];
            UpstreamKey key = provider.keys().get(i);
            long until = state.until(now);
            reports.add(new KeyReport(key.name(), key.weight(), state.health(now),
                    until > 0 ? Optional.of(until) : Optional.empty(), state.inFlight(),
                    Optional.ofNullable(state.lastError()),
                    state.lastError() == null ? Optional.empty() : Optional.of(state.lastErrorAt())));
        }
        return reports;
    }

    /** Every key this gateway has known, for the shared states' refresh. */
    List<KnownKey> known() {
        List<KnownKey> known = new ArrayList<>();
        states.forEach((provider, keys) -> keys.forEach((name, state) ->
                known.add(new KnownKey(provider, name, state))));
        return known;
    }

    void answered(String provider, UpstreamKey key, KeyState state, long tokens) {
        if (state.answered(tokens, System.currentTimeMillis())) {
            LOG.log(Level.INFO, "Upstream key " + provider + "/" + key.name() + " answers again: it is healthy.");
        }
    }

    void rateLimited(String provider, UpstreamKey key, KeyState state, Optional<Duration> retryAfter) {
        long now = System.currentTimeMillis();
        Duration rest = retryAfter.filter(wait -> !wait.isNegative()).orElse(config.cooldown());
        long until = now + rest.toMillis();
        state.coolUntil(until, "429, cooling for " + rest.toMillis() + " ms", now);
        shared.cooling(provider, key.name(), until);
    }

    void refused(String provider, UpstreamKey key, KeyState state, int status) {
        long now = System.currentTimeMillis();
        // The upstream's own words go to the log where the answer is read (the upstream layer's RejectedKeyLog).
        state.refuse(now + config.refusedFor().toMillis(), "refused the key (" + status + ")", now);
    }

    void failed(String provider, UpstreamKey key, KeyState state, String reason) {
        long now = System.currentTimeMillis();
        long ejection = state.failed(reason, now, config.ejectAfter(), config.ejection().toMillis(),
                config.maxEjection().toMillis());
        if (ejection > 0) {
            shared.ejected(provider, key.name(), state.ejectedUntil());
            LOG.log(Level.WARNING, "Upstream key " + provider + "/" + key.name() + " is ejected for " + ejection
                    + " ms after failing again (last: " + reason + "); then one call probes it.");
        }
    }

    private KeyState[] states(Provider provider) {
        List<UpstreamKey> keys = provider.keys();
        KeyState[] keyStates = new KeyState[keys.size()];
        Map<String, KeyState> byName = states.get(provider.name());
        for (int i = 0; i < keyStates.length; i++) {
            String name = keys.get(i).name();
            KeyState state = byName == null ? null : byName.get(name);
            keyStates[i] = state != null ? state : state(provider.name(), name);
        }
        return keyStates;
    }

    private KeyState state(String provider, String key) {
        return states.computeIfAbsent(provider, name -> new ConcurrentHashMap<>())
                .computeIfAbsent(key, name -> new KeyState());
    }

    @Override
    public void close() {
        shared.close();
    }
}
