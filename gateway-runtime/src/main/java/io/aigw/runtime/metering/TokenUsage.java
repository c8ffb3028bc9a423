package io.aigw.runtime.metering;

import io.aigw.runtime.pricing.MeteredUsage;
import io.aigw.runtime.pricing.Usd;
import java.util.Optional;

/**
 * Token counts as an upstream reports them in {@code usage}, with the details a cost depends on; -1
 * for a count it reported none of.
 *
 * @param cachedTokens     {@code prompt_tokens_details.cached_tokens}: prompt tokens read from a cache
 * @param cacheWriteTokens {@code prompt_tokens_details.cache_write_tokens}: prompt tokens written into one
 * @param reasoningTokens  {@code completion_tokens_details.reasoning_tokens}
 * @param reportedCost     the cost the upstream reported ({@code usage.cost}, {@code usage.cost_in_usd_ticks})
 */
public record TokenUsage(long promptTokens, long completionTokens, long totalTokens, long cachedTokens,
                         long cacheWriteTokens, long reasoningTokens, Optional<Usd> reportedCost)
        implements MeteredUsage {
    public static final TokenUsage NONE = new TokenUsage(-1, -1, -1);

    /** The three counts alone, without details or a cost. */
    public TokenUsage(long promptTokens, long completionTokens, long totalTokens) {
        this(promptTokens, completionTokens, totalTokens, -1, -1, -1, Optional.empty());
    }
}
