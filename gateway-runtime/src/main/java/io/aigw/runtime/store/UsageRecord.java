package io.aigw.runtime.store;

import io.aigw.runtime.pricing.Cost;
import io.aigw.runtime.pricing.PriceBook;
import java.time.Instant;
import java.util.Objects;

/**
 * One request as it is counted, or one failed attempt of it that its upstream still billed.
 *
 * @param provider        the provider that answered last, or null when none was tried
 * @param upstreamModel   the model that provider was asked for, or null
 * @param status          the HTTP status the caller got; for a failed attempt, the upstream's
 * @param promptTokens    from the upstream's {@code usage}, or estimated where the cost is; -1 when
 *                        neither
 * @param latencyMicros   from the request to the end of the answer
 * @param firstByteMicros from the request to the first byte sent to the caller, or -1
 * @param fallbacks       how many providers failed before the one that answered
 * @param cost            what it cost, and how that is known
 * @param prices          the price table the request was routed with: kept once per version, so
 *                        that the cost's {@link Cost#priceVersion()} stays explainable
 * @param failedAttempt   a provider {@code gateway/auto} moved past, recorded because its answer
 *                        reported usage: its cost counts, but it is not a request of its own
 * @param traceId         the trace the request is part of, or null when tracing is off
 * @param upstreamKey     the name of the provider's upstream key the call was made with, or null
 * @param endpoint        the endpoint it was asked on: {@code chat_completions}, {@code embeddings}...
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
        int fallbacks,
        Cost cost,
        PriceBook prices,
        boolean failedAttempt,
        String traceId,
        String upstreamKey,
        String endpoint) {

    public UsageRecord {
        Objects.requireNonNull(cost, "cost");
        Objects.requireNonNull(prices, "prices");
        Objects.requireNonNull(endpoint, "endpoint");
    }

    /** A chat completion's record outside any trace, of no upstream key. */
    public UsageRecord(Instant time, String keyId, String requestedModel, String provider, String upstreamModel,
                       int status, long promptTokens, long completionTokens, long totalTokens, long latencyMicros,
                       long firstByteMicros, int fallbacks, Cost cost, PriceBook prices, boolean failedAttempt) {
        this(time, keyId, requestedModel, provider, upstreamModel, status, promptTokens, completionTokens,
                totalTokens, latencyMicros, firstByteMicros, fallbacks, cost, prices, failedAttempt, null, null,
                "chat_completions");
    }
}
