package io.aigw.runtime.pricing;

import static io.aigw.runtime.pricing.ModelPriceTest.usage;
import static io.aigw.runtime.pricing.ModelPriceTest.usd;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.metering.TokenUsage;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

final class PriceBookTest {
    private static final ModelPrice CHEAP = new ModelPrice(Rates.of(usd("0.10"), usd("0.025"), null, usd("0.40"),
            null), List.of(new Tier(128000, Rates.of(usd("0.2"), null, null, usd("0.8"), null))));
    private static final ModelPrice DEAR = new ModelPrice(Rates.of(usd("15"), null, null, usd("75"), null), List.of());

    @Test
    void theSamePricesHaveTheSameVersionWhateverTheirOrderOrSpelling() {
        Map<String, Map<String, ModelPrice>> one = new LinkedHashMap<>();
        one.put("b", Map.of("dear", DEAR, "cheap", CHEAP));
        one.put("a", Map.of("cheap", CHEAP));
        Map<String, Map<String, ModelPrice>> other = new LinkedHashMap<>();
        other.put("a", Map.of("cheap", new ModelPrice(Rates.of(usd("0.1000"), usd("0.025"), usd("0.1"), usd("0.4"),
                usd("0.40")), CHEAP.tiers())));
        other.put("b", Map.of("cheap", CHEAP, "dear", DEAR));
        other.put("c", Map.of());

        PriceBook book = PriceBook.of(one);

        assertEquals(book.version(), PriceBook.of(other).version());
        assertTrue(book.version().matches("[0-9a-f]{12}"), book.version());
        assertEquals("{\"a\":{\"cheap\":{\"input\":0.1,\"cached_input\":0.025,\"cache_write\":0.1,\"output\":0.4,"
                + "\"reasoning\":0.4,\"tiers\":[{\"above_prompt_tokens\":128000,\"input\":0.2,\"cached_input\":0.2,"
                + "\"cache_write\":0.2,\"output\":0.8,\"reasoning\":0.8}]}},\"b\":{\"cheap\":{\"input\":0.1,"
                + "\"cached_input\":0.025,\"cache_write\":0.1,\"output\":0.4,\"reasoning\":0.4,\"tiers\":[{"
                + "\"above_prompt_tokens\":128000,\"input\":0.2,\"cached_input\":0.2,\"cache_write\":0.2,\"output\":0.8,"
                + "\"reasoning\":0.8}]},\"dear\":{\"input\":15,\"cached_input\":15,\"cache_write\":15,\"output\":75,"
                + "\"reasoning\":75}}}", book.canonical());
    }

    @Test
    void anyChangedRateOrTierChangesTheVersion() {
        String version = PriceBook.of(Map.of("a", Map.of("m", DEAR))).version();

        assertNotEquals(version, PriceBook.of(Map.of("a", Map.of("m", new ModelPrice(Rates.of(usd("15"), null, null,
                usd("75.01"), null), List.of())))).version());
        assertNotEquals(version, PriceBook.of(Map.of("a", Map.of("m", new ModelPrice(DEAR.rates(),
                List.of(new Tier(1000, DEAR.rates())))))).version());
        assertNotEquals(version, PriceBook.of(Map.of("a", Map.of("n", DEAR))).version());
        assertNotEquals(version, PriceBook.of(Map.of("b", Map.of("m", DEAR))).version());
    }

    @Test
    void aKeptTableReadsBackToTheSameVersionAndPrices() {
        PriceBook book = PriceBook.of(Map.of("a", Map.of("cheap", CHEAP, "dear", DEAR)));

        PriceBook restored = PriceBook.parse(book.canonical());

        assertEquals(book.version(), restored.version());
        assertEquals(Optional.of(CHEAP), restored.price("a", "cheap"));
        TokenUsage usage = usage(200_000, 100_000, -1, 1000, -1, 201_000);
        assertEquals(book.cost("a", "cheap", usage), restored.cost("a", "cheap", usage));
    }

    @Test
    void whatIsNotAPriceTableIsRefused() {
        for (String text : new String[] {"[]", "{\"a\":[]}", "{\"a\":{\"m\":{\"input\":1}}}", "{\"a\":"}) {
            assertThrows(IllegalArgumentException.class, () -> PriceBook.parse(text), text);
        }
    }

    @Test
    void aReportedCostWinsAndWithoutOneOrAPriceOrTheCountsTheCostIsUnknown() {
        PriceBook book = PriceBook.of(Map.of("a", Map.of("dear", DEAR)));
        TokenUsage reported = new TokenUsage(1000, 10, 1010, -1, -1, -1, Optional.of(new Usd(7)));

        assertEquals(new Cost.Reported(new Usd(7)), book.cost("a", "dear", reported));
        assertEquals(new Cost.Reported(new Usd(7)), book.cost("a", "unpriced", reported));
        assertEquals(new Cost.Unknown(Cost.Reason.NO_PRICE), book.cost("a", "unpriced", usage(1000, -1, -1, 10, -1,
                1010)));
        assertEquals(new Cost.Unknown(Cost.Reason.NO_USAGE), book.cost("a", "dear", TokenUsage.NONE));
        assertEquals(Optional.empty(), book.cost("a", "dear", TokenUsage.NONE).amount());
        // 1000 x 15 + 10 x 75 = 0.015 + 0.00075
        assertEquals(new Cost.Priced(new Usd(15_750_000), book.version()),
                book.cost("a", "dear", usage(1000, -1, -1, 10, -1, 1010)));
    }
}
