package io.aigw.runtime.pricing;

import java.util.List;
import java.util.Objects;

/**
 * What one model costs: its rates, and the rates of each long-context tier it has.
 *
 * @param tiers in ascending order of their thresholds; empty for a model with one set of rates
 */
public record ModelPrice(Rates rates, List<Tier> tiers) {

    public ModelPrice {
        Objects.requireNonNull(rates, "rates");
        tiers = List.copyOf(tiers);
        for (int i = 1; i < tiers.size(); i++) {
            if (tiers.get(i).abovePromptTokens() <= tiers.get(i - 1).abovePromptTokens()) {
                throw new IllegalArgumentException("tier " + (i + 1) + "'s 'above_prompt_tokens' ("
                        + tiers.get(i).abovePromptTokens() + ") must be more than tier " + i + "'s ("
                        + tiers.get(i - 1).abovePromptTokens() + "): tiers go in ascending order");
            }
        }
    }

    /** The rates of a request of this many prompt tokens: the last tier whose threshold it is above, else the usual ones. */
    public Rates ratesFor(long promptTokens) {
        Rates applying = rates;
        for (Tier tier : tiers) {
            if (promptTokens > tier.abovePromptTokens()) {
                applying = tier.rates();
            }
        }
        return applying;
    }

    /**
     * The cost of a request at these rates, from its token counts split as {@link BilledTokens} says:
     * prompt tokens read from a cache at {@code cached_input}, written into one at
     * {@code cache_write}, the other prompt tokens at {@code input}; reasoning tokens at
     * {@code reasoning}, the other completion tokens at {@code output}; all at the rates of the tier
     * the prompt's length falls in. Exact, rounded once to the nano-dollar.
     *
     * @throws IllegalArgumentException when the usage reports no prompt or no completion count
     */
    public Usd cost(MeteredUsage usage) {
        if (usage.promptTokens() < 0 || usage.completionTokens() < 0) {
            throw new IllegalArgumentException("a cost needs the prompt and completion counts: " + usage);
        }
        BilledTokens tokens = BilledTokens.of(usage);
        return Usd.of(ratesFor(tokens.promptTokens()).dollars(tokens.uncached(), tokens.cached(), tokens.cacheWrite(),
                tokens.output(), tokens.reasoning()));
    }

    /**
     * The most a request of this many prompt and completion tokens can cost: every prompt token at
     * the dearer of {@code input} and {@code cache_write}, every completion token at the dearer of
     * {@code output} and {@code reasoning}, at the rates of the prompt's tier. What a budget reserves.
     */
    public Usd bound(long promptTokens, long completionTokens) {
        Rates at = ratesFor(promptTokens);
        boolean writeDearer = at.cacheWrite().compareTo(at.input()) > 0;
        boolean reasoningDearer = at.reasoning().compareTo(at.output()) > 0;
        return Usd.of(at.dollars(writeDearer ? 0 : promptTokens, 0, writeDearer ? promptTokens : 0,
                reasoningDearer ? 0 : completionTokens, reasoningDearer ? completionTokens : 0));
    }
}
