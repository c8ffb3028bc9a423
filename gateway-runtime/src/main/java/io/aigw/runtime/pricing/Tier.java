package io.aigw.runtime.pricing;

import java.util.Objects;

/**
 * The rates a model charges instead of its usual ones for a request whose prompt is longer than a
 * threshold, as Gemini 2.5 Pro and Claude Sonnet 4 do above 200 000 prompt tokens: every token of
 * such a request, not only those past the threshold, is charged at these rates.
 *
 * @param abovePromptTokens the tier applies to a request of strictly more prompt tokens than this
 *                          (the providers' "prompts &gt; 200k tokens")
 */
public record Tier(long abovePromptTokens, Rates rates) {

    public Tier {
        if (abovePromptTokens <= 0) {
            throw new IllegalArgumentException("'above_prompt_tokens' must be a positive whole number of tokens, not "
                    + abovePromptTokens);
        }
        Objects.requireNonNull(rates, "rates");
    }
}
