package io.aigw.runtime.pool;

/** How an upstream key stands, as the admin API shows it. */
public enum KeyHealth {
    /** Chosen by weight and load. */
    HEALTHY,
    /** The upstream answered 429: skipped until its {@code Retry-After} (or the default) is over. */
    COOLING,
    /** The upstream refused it (401/403): skipped until a reload, or a probe after the cool-down shows it works. */
    FAILED,
    /** It failed again and again (5xx, timeouts, refused connections): skipped for a growing interval. */
    EJECTED,
    /** Its interval is over: one call at a time probes it, and the first that works makes it healthy. */
    PROBATION
}
