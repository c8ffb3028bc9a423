package io.aigw.runtime.config;

import java.time.Duration;

/**
 * How a provider's pool of upstream keys treats a key that fails: {@code gateway.pools.*}, and
 * {@code gateway.auto.key-cooldown} for a key the upstream refused.
 *
 * @param cooldown      {@code gateway.pools.cooldown}: how long a key rests after a 429 that says
 *                      not how long ({@code Retry-After})
 * @param refusedFor    {@code gateway.auto.key-cooldown}: how long a key refused with 401/403 is
 *                      skipped before one call probes it (a reload forgets the refusal at once)
 * @param ejectAfter    {@code gateway.pools.eject-after}: failures in a row (5xx, timeouts, refused
 *                      connections) that eject a key
 * @param ejection      {@code gateway.pools.ejection}: how long the first ejection lasts; each
 *                      one after it twice as long as the one before
 * @param maxEjection   {@code gateway.pools.max-ejection}: the longest an ejection lasts
 * @param sharedRefresh {@code gateway.pools.shared-refresh}: how often the states other replicas
 *                      shared through Redis ({@code gateway.limits.redis-url}) are read
 */
public record PoolsConfig(Duration cooldown, Duration refusedFor, int ejectAfter, Duration ejection,
                          Duration maxEjection, Duration sharedRefresh) {

    /** The defaults, as an empty configuration reads. */
    public static final PoolsConfig DEFAULTS = new PoolsConfig(Duration.ofSeconds(30), Duration.ofSeconds(60), 5,
            Duration.ofSeconds(30), Duration.ofMinutes(10), Duration.ofSeconds(1));

    static PoolsConfig read(Settings settings) {
        int ejectAfter = settings.getInt("gateway.pools.eject-after", DEFAULTS.ejectAfter());
        if (ejectAfter < 1) {
            throw new ConfigurationException("gateway.pools.eject-after must be at least 1, not " + ejectAfter);
        }
        PoolsConfig config = new PoolsConfig(settings.getDuration("gateway.pools.cooldown", DEFAULTS.cooldown()),
                settings.getDuration("gateway.auto.key-cooldown", DEFAULTS.refusedFor()), ejectAfter,
                settings.getDuration("gateway.pools.ejection", DEFAULTS.ejection()),
                settings.getDuration("gateway.pools.max-ejection", DEFAULTS.maxEjection()),
                settings.getDuration("gateway.pools.shared-refresh", DEFAULTS.sharedRefresh()));
        if (config.sharedRefresh().toMillis() < 10) {
            throw new ConfigurationException("gateway.pools.shared-refresh must be 10ms or longer");
        }
        return config;
    }
}
