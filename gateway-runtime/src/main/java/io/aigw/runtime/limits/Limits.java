package io.aigw.runtime.limits;

import io.aigw.runtime.store.KeyPolicy;

/**
 * A key's limits a minute, 0 where it has none.
 *
 * @param rpm requests a minute
 * @param tpm tokens a minute, prompt and completion
 */
public record Limits(long rpm, long tpm) {
    /** The length of a window, in milliseconds. */
    public static final long WINDOW_MILLIS = 60_000;

    /** A policy's limits. */
    public static Limits of(KeyPolicy policy) {
        return new Limits(policy.rpm().orElse(0), policy.tpm().orElse(0));
    }
}
