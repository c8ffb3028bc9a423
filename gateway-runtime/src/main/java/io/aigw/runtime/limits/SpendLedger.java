package io.aigw.runtime.limits;

/**
 * Where a key's spend so far is rebuilt from when a limiter has no count of it: at the first request
 * after a start, at a period's start, and when Redis lost the count. The database's usage records
 * are the source of truth; a count in memory or Redis is their running copy plus what is in flight.
 */
@FunctionalInterface
public interface SpendLedger {
    /** Spends nothing: for a limiter whose keys have no budget (benchmarks). */
    SpendLedger NONE = (keyId, sinceMillis) -> 0;

    /** What the key spent since {@code sinceMillis} (unix ms, a UTC day's start), in nano-dollars. */
    long spentNanos(String keyId, long sinceMillis);
}
