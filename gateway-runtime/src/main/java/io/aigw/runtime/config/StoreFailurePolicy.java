package io.aigw.runtime.config;

/** What a request gets while the limit store cannot be asked: {@code gateway.limits.on-store-failure}. */
public enum StoreFailurePolicy {
    /** Served unchecked and uncounted, as Envoy's rate limiting fails open. */
    ALLOW,
    /** Refused with 503 {@code limits_unavailable}. */
    DENY
}
