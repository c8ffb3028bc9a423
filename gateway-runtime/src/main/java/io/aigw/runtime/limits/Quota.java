package io.aigw.runtime.limits;

/**
 * A key's window as an answer's {@code x-ratelimit-*} headers show it.
 *
 * @param limits          the key's limits
 * @param usedRequests    requests counted in the window, reservations included
 * @param usedTokens      tokens counted in the window, reservations included
 * @param resetMillis     milliseconds until the window ends and its counts start again from zero
 * @param spentNanos      the key's spend in its budget's period, reservations included; 0 without a budget
 */
public record Quota(Limits limits, long usedRequests, long usedTokens, long resetMillis, long spentNanos) {

    public long remainingRequests() {
        return Math.max(0, limits.rpm() - usedRequests);
    }

    public long remainingTokens() {
        return Math.max(0, limits.tpm() - usedTokens);
    }
}
