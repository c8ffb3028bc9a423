package io.aigw.runtime.pricing;

import io.aigw.runtime.error.Jsons;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;

/**
 * The canonical text of a price table, which its version is the hash of: one JSON object of
 * providers, each an object of its models' prices in {@link PriceJson}'s form, with no white space,
 * providers and models in the order of their names, every rate written out (the fallbacks applied)
 * and each rate as a plain decimal without trailing zeros. So two tables that charge the same have
 * the same text, whatever order or spelling ({@code 1.50}, {@code 1.5}) their sources used.
 */
final class PriceTableText {
    private static final String[] RATE_NAMES = {"input", "cached_input", "cache_write", "output", "reasoning"};

    private PriceTableText() {
    }

    /** @param prices sorted by provider, then model */
    static String write(Map<String, ? extends Map<String, ModelPrice>> prices) {
        StringBuilder text = new StringBuilder("{");
        prices.forEach((provider, models) -> {
            if (text.length() > 1) {
                text.append(',');
            }
            text.append(quoted(provider)).append(":{");
            int start = text.length();
            models.forEach((model, price) -> {
                if (text.length() > start) {
                    text.append(',');
                }
                text.append(quoted(model)).append(':');
                write(price, text);
            });
            text.append('}');
        });
        return text.append('}').toString();
    }

    private static void write(ModelPrice price, StringBuilder text) {
        text.append('{');
        writeRates(price.rates(), text);
        if (!price.tiers().isEmpty()) {
            text.append(",\"tiers\":[");
            for (int i = 0; i < price.tiers().size(); i++) {
                Tier tier = price.tiers().get(i);
                text.append(i > 0 ? ",{" : "{").append("\"above_prompt_tokens\":").append(tier.abovePromptTokens())
                        .append(',');
                writeRates(tier.rates(), text);
                text.append('}');
            }
            text.append(']');
        }
        text.append('}');
    }

    private static void writeRates(Rates rates, StringBuilder text) {
        BigDecimal[] values = {rates.input(), rates.cachedInput(), rates.cacheWrite(), rates.output(), rates.reasoning()};
        for (int i = 0; i < values.length; i++) {
            text.append(i > 0 ? ",\"" : "\"").append(RATE_NAMES[i]).append("\":")
                    .append(values[i].toPlainString());
        }
    }

    private static String quoted(String name) {
        return Jsons.PROVIDER.createValue(name).toString();
    }

    /**
     * Reads a table {@link #write} wrote, sorted by provider, then model.
     *
     * @throws IllegalArgumentException when the text is not a price table
     */
    static Map<String, Map<String, ModelPrice>> read(String text) {
        JsonValue table;
        try (JsonReader reader = Jsons.PROVIDER.createReader(new StringReader(text))) {
            table = reader.readValue();
        } catch (JsonException e) {
            throw new IllegalArgumentException("a price table is JSON: " + e.getMessage(), e);
        }
        if (!(table instanceof JsonObject providers)) {
            throw new IllegalArgumentException("a price table is an object of providers, not " + PriceJson.describe(table));
        }
        Map<String, Map<String, ModelPrice>> prices = new TreeMap<>();
        providers.forEach((provider, models) -> {
            if (!(models instanceof JsonObject byModel)) {
                throw new IllegalArgumentException("the provider '" + provider + "' is an object of models, not "
                        + PriceJson.describe(models));
            }
            Map<String, ModelPrice> modelPrices = new TreeMap<>();
            byModel.forEach((model, price) -> {
                try {
                    modelPrices.put(model, PriceJson.read(price, PriceJson.Spelling.SNAKE_CASE));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(provider + "/" + model + ": " + e.getMessage(), e);
                }
            });
            prices.put(provider, modelPrices);
        });
        return prices;
    }
}
