package io.aigw.runtime.store;

import java.time.Instant;
import java.util.Optional;

/**
 * A workspace key as the store keeps it: never the key itself, only its SHA-256 hash (not here).
 *
 * @param admin  whether the key may call the admin API (the key made at first start)
 * @param policy what the key may do: models, expiry, rate limits
 */
public record StoredKey(String id, String name, boolean admin, Instant createdAt, Optional<Instant> revokedAt,
                        KeyPolicy policy) {

    public boolean revoked() {
        return revokedAt.isPresent();
    }
}
