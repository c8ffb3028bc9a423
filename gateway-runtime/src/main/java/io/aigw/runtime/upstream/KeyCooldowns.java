package io.aigw.runtime.upstream;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Remembers which providers' keys an upstream recently rejected (401/403), so that
 * {@code gateway/auto} skips them for a cool-down instead of failing on them for every request.
 */
final class KeyCooldowns {
    private final long cooldownNanos;
    private final Map<String, Long> rejectedUntil = new ConcurrentHashMap<>();

    KeyCooldowns(Duration cooldown) {
        this.cooldownNanos = cooldown.toNanos();
    }

    void markRejected(String provider) {
        rejectedUntil.put(provider, System.nanoTime() + cooldownNanos);
    }

    boolean isCoolingDown(String provider) {
        Long until = rejectedUntil.get(provider);
        if (until == null) {
            return false;
        }
        if (until - System.nanoTime() > 0) {
            return true;
        }
        rejectedUntil.remove(provider, until);
        return false;
    }
}
