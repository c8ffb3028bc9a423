package io.aigw.runtime.pricing;

/**
 * A request's tokens split by the rate each is charged at, from the counts its upstream reported.
 *
 * <p>In the Chat Completions shape a detail count is part of the count it details: cached and
 * cache-write tokens are among the prompt tokens, reasoning tokens among the completion tokens. Some
 * providers count one apart instead, and their own counts show it, so it is read from them rather
 * than declared per provider:
 * <ul>
 *   <li>tokens that {@code total_tokens} counts beyond the prompt and the completion were generated
 *       but left out of {@code completion_tokens}: xAI's reasoning tokens, Gemini's thinking tokens.
 *       They are charged as reasoning tokens, and the completion tokens as output tokens;</li>
 *   <li>a detail count larger than the count it details cannot be part of it, so it is taken as
 *       counted apart from it.</li>
 * </ul>
 * A detail that is not reported counts as none.
 *
 * @param promptTokens every prompt token, what a {@link Tier} is chosen by
 */
record BilledTokens(long promptTokens, long uncached, long cached, long cacheWrite, long output, long reasoning) {

    /** Splits the usage; its prompt and completion counts must be reported (not negative). */
    static BilledTokens of(MeteredUsage usage) {
        long prompt = usage.promptTokens();
        long completion = usage.completionTokens();
        long cached = Math.max(0, usage.cachedTokens());
        long written = Math.max(0, usage.cacheWriteTokens());
        long uncached = prompt - cached - written;
        if (uncached < 0) {
            uncached = prompt;
            prompt += cached + written;
        }
        long reasoning = Math.max(0, usage.reasoningTokens());
        long beyondCompletion = usage.totalTokens() < 0 ? 0 : usage.totalTokens() - prompt - completion;
        if (beyondCompletion > 0) {
            return new BilledTokens(prompt, uncached, cached, written, completion, beyondCompletion);
        }
        if (reasoning > completion) {
            return new BilledTokens(prompt, uncached, cached, written, completion, reasoning);
        }
        return new BilledTokens(prompt, uncached, cached, written, completion - reasoning, reasoning);
    }
}
