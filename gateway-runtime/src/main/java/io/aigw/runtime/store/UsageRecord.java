package io.aigw.runtime.store;

import java.time.Instant;

/**
 * One chat completion as it is counted.
 *
 * @param provider        the provider that answered last, or null when none was tried
 * @param upstreamModel   the model that provider was asked for, or null
 * @param status          the HTTP status the caller got
 * @param promptTokens    from the upstream's {@code usage}, or -1 when it reported none
 * @param latencyMicros   from the request to the end of the answer
 * @param firstByteMicros from the request to the first byte sent to the caller, or -1
 * @param fallbacks       how many providers failed before the one that answered
 */
public record UsageRecord(
        Instant time,
        String keyId,
        String requestedModel,
        String provider,
        String upstreamModel,
        int status,
        long promptTokens,
        long completionTokens,
        long totalTokens,
        long latencyMicros,
        long firstByteMicros,
        int fallbacks) {
}
