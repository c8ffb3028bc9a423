package io.aigw.runtime.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aigw.runtime.metering.TokenUsage;
import java.math.BigDecimal;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How a request's reported tokens are split by rate and priced. Figures in the comments are US dollars. */
final class ModelPriceTest {
    /** Claude Haiku 4.5: input 1, cache read 0.10, cache write 1.25, output 5. */
    private static final ModelPrice HAIKU = new ModelPrice(Rates.of(usd("1"), usd("0.10"), usd("1.25"), usd("5"),
            null), List.of());

    @Test
    void cacheReadsAndWritesArePartOfThePromptAndEachHasItsRate() {
        // (1000 - 600 - 300) x 1 + 600 x 0.10 + 300 x 1.25 + 100 x 5 = 0.0001 + 0.00006 + 0.000375 + 0.0005
        assertEquals(new Usd(1_035_000), HAIKU.cost(usage(1000, 600, 300, 100, -1, 1100)));
    }

    @Test
    void ratesAPriceLeavesOutFallBackToTheInputAndOutputRates() {
        ModelPrice plain = new ModelPrice(Rates.of(usd("2"), null, null, usd("8"), null), List.of());

        // Every prompt token at 2, every completion token at 8: 1000 x 2 + 100 x 8 = 0.002 + 0.0008
        assertEquals(new Usd(2_800_000), plain.cost(usage(1000, 600, 300, 100, 40, 1100)));
        assertEquals(new Rates(usd("2.00"), usd("2"), usd("2"), usd("8"), usd("8.0")), plain.rates());
    }

    @Test
    void reasoningPricedApartIsChargedAtItsRate() {
        ModelPrice reasoning = new ModelPrice(Rates.of(usd("1"), null, null, usd("4"), usd("3.5")), List.of());

        // 100 x 1 + (50 - 20) x 4 + 20 x 3.5 = 0.0001 + 0.00012 + 0.00007
        assertEquals(new Usd(290_000), reasoning.cost(usage(100, -1, -1, 50, 20, 150)));
    }

    @Test
    void tokensTheTotalCountsBeyondPromptAndCompletionAreChargedAsReasoning() {
        // total 200 = 100 + 50 + 50 beyond: 100 x 1 + 50 x 5 + 50 x 5 (reasoning at the output rate)
        assertEquals(new Usd(600_000), HAIKU.cost(usage(100, -1, -1, 50, -1, 200)));
        // The same when the 50 are reported as reasoning tokens, as xAI does.
        assertEquals(new Usd(600_000), HAIKU.cost(usage(100, -1, -1, 50, 50, 200)));
    }

    @Test
    void aDetailLargerThanWhatItDetailsIsTakenAsCountedApart() {
        // Reasoning 60 > completion 0, no total: 60 reasoning tokens beside the completion.
        assertEquals(new Usd(100_000 + 300_000), HAIKU.cost(usage(100, -1, -1, 0, 60, -1)));
        // Cache reads 500 > prompt 100: 100 uncached beside 500 cached, 600 prompt tokens in all.
        assertEquals(new Usd(100_000 + 50_000), HAIKU.cost(usage(100, 500, -1, 0, -1, -1)));
    }

    @Test
    void aTierAppliesAboveItsThresholdOnlyAndToEveryTokenOfTheRequest() {
        ModelPrice tiered = new ModelPrice(Rates.of(usd("1"), null, null, usd("2"), null), List.of(
                new Tier(10, Rates.of(usd("10"), null, null, usd("20"), null)),
                new Tier(20, Rates.of(usd("100"), null, null, usd("200"), null))));

        assertEquals(new Usd(10 * 1000 + 1 * 2000), tiered.cost(usage(10, -1, -1, 1, -1, 11)));
        assertEquals(new Usd(11 * 10_000 + 1 * 20_000), tiered.cost(usage(11, -1, -1, 1, -1, 12)));
        assertEquals(new Usd(21 * 100_000 + 1 * 200_000), tiered.cost(usage(21, -1, -1, 1, -1, 22)));
    }

    @Test
    void tiersMustAscendAndRatesMustNotBeNegative() {
        Rates rates = Rates.of(usd("1"), null, null, usd("2"), null);
        IllegalArgumentException order = assertThrows(IllegalArgumentException.class,
                () -> new ModelPrice(rates, List.of(new Tier(20, rates), new Tier(10, rates))));
        assertEquals("tier 2's 'above_prompt_tokens' (10) must be more than tier 1's (20): tiers go in ascending"
                + " order", order.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new Tier(0, rates));
        assertThrows(IllegalArgumentException.class, () -> Rates.of(usd("1"), usd("-0.1"), null, usd("2"), null));
    }

    @Test
    void aCostNeedsThePromptAndCompletionCounts() {
        assertThrows(IllegalArgumentException.class, () -> HAIKU.cost(usage(-1, -1, -1, 10, -1, -1)));
        assertThrows(IllegalArgumentException.class, () -> HAIKU.cost(usage(10, -1, -1, -1, -1, -1)));
    }

    static TokenUsage usage(long prompt, long cached, long written, long completion, long reasoning, long total) {
        return new TokenUsage(prompt, completion, total, cached, written, reasoning, Optional.empty());
    }

    static BigDecimal usd(String rate) {
        return new BigDecimal(rate);
    }
}
