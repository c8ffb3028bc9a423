package io.aigw.runtime.pricing;

import java.util.Optional;

/**
 * The token counts of one request that its cost is computed from, as the upstream reported them in
 * its answer's {@code usage} object (the Chat Completions shape); -1 for a count it did not report.
 */
public interface MeteredUsage {

    /** {@code prompt_tokens}: every prompt token, those read from or written into a cache included. */
    long promptTokens();

    /** {@code prompt_tokens_details.cached_tokens}: prompt tokens read from the provider's cache. */
    long cachedTokens();

    /** {@code prompt_tokens_details.cache_write_tokens} (OpenRouter): prompt tokens written into the cache. */
    long cacheWriteTokens();

    /** {@code completion_tokens}: generated tokens, reasoning tokens included where the provider counts them here. */
    long completionTokens();

    /** {@code completion_tokens_details.reasoning_tokens}: generated tokens of hidden reasoning. */
    long reasoningTokens();

    /** {@code total_tokens}: every token counted, which shows tokens a provider counts apart from the others. */
    long totalTokens();

    /**
     * The cost the upstream reported for the request itself: OpenRouter's {@code usage.cost} or xAI's
     * {@code usage.cost_in_usd_ticks}; empty where it reported none.
     */
    Optional<Usd> reportedCost();
}
