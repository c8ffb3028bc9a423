package io.aigw.tck;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.List;

/**
 * A catalogue entry's {@code pricing} against its documented format: an object of rates in US
 * dollars per million tokens, each a number and never negative; {@code input} and {@code output}
 * required (an embedding model's {@code output} optional), {@code cached_input}, {@code cache_write} and {@code reasoning} optional; {@code tiers}
 * an array of the same rates, each with a positive whole {@code above_prompt_tokens}, in ascending
 * order. No other members: a misspelt rate would silently charge its fallback rate.
 */
final class PricingRules {
    private static final List<String> RATES = List.of("input", "cached_input", "cache_write", "output", "reasoning");
    private static final List<String> REQUIRED = List.of("input", "output");
    private static final List<String> REQUIRED_OF_EMBEDDINGS = List.of("input");
    private static final String TIERS = "tiers";
    private static final String ABOVE = "above_prompt_tokens";

    private PricingRules() {
    }

    /**
     * Adds a problem for each thing wrong with the entry's {@code pricing}; absent or null is no price.
     *
     * @param embedding whether the entry is an embedding model's, which writes no tokens to price
     */
    static void check(JsonValue pricing, String entry, boolean embedding, List<String> problems) {
        List<String> required = embedding ? REQUIRED_OF_EMBEDDINGS : REQUIRED;
        if (pricing == null || pricing.getValueType() == JsonValue.ValueType.NULL) {
            return;
        }
        String where = entry + ": 'pricing'";
        if (!(pricing instanceof JsonObject price)) {
            problems.add(where + " must be an object of rates, not " + Describe.value(pricing));
            return;
        }
        rates(price, where, TIERS, required, problems);
        JsonValue tiers = price.get(TIERS);
        if (tiers == null) {
            return;
        }
        if (!(tiers instanceof JsonArray list)) {
            problems.add(where + ": 'tiers' must be an array of {above_prompt_tokens, ...rates}, not "
                    + Describe.value(tiers));
            return;
        }
        long previous = 0;
        for (int i = 0; i < list.size(); i++) {
            String tier = where + ": tier " + (i + 1);
            if (!(list.get(i) instanceof JsonObject rates)) {
                problems.add(tier + " must be an object {above_prompt_tokens, ...rates}, not "
                        + Describe.value(list.get(i)));
                continue;
            }
            rates(rates, tier, ABOVE, required, problems);
            JsonValue above = rates.get(ABOVE);
            if (above == null) {
                problems.add(tier + " has no '" + ABOVE + "'");
            } else if (!(above instanceof JsonNumber tokens) || !tokens.isIntegral()
                    || tokens.bigDecimalValue().signum() <= 0 || tokens.bigIntegerValue().bitLength() >= Long.SIZE) {
                problems.add(tier + ": '" + ABOVE + "' must be a positive whole number of prompt tokens, not "
                        + Describe.value(above));
            } else if (tokens.longValue() <= previous) {
                problems.add(tier + ": '" + ABOVE + "' (" + tokens + ") must be more than the tier before's ("
                        + previous + "): tiers go in ascending order");
            } else {
                previous = tokens.longValue();
            }
        }
    }

    /** The rates of a price or a tier; {@code more} is the one other member it may have. */
    private static void rates(JsonObject rates, String where, String more, List<String> required,
                              List<String> problems) {
        for (String member : rates.keySet()) {
            if (!RATES.contains(member) && !member.equals(more)) {
                problems.add(where + ": '" + member + "' is not a member of a price; its members are "
                        + String.join(", ", RATES) + " and " + more);
            }
        }
        for (String rate : required) {
            if (!rates.containsKey(rate)) {
                problems.add(where + " has no '" + rate + "'");
            }
        }
        for (String name : RATES) {
            JsonValue rate = rates.get(name);
            if (rate != null && (!(rate instanceof JsonNumber number) || number.bigDecimalValue().signum() < 0)) {
                problems.add(where + ": '" + name + "' must be a number of US dollars per million tokens, not"
                        + " negative, not " + Describe.value(rate));
            }
        }
    }
}
