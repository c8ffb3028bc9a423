package io.aigw.runtime.pricing;

import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Reads a model's price from its JSON form, the {@code pricing} object of a catalogue entry:
 * {@code {"input", "cached_input", "cache_write", "output", "reasoning", "tiers"}}, rates in US
 * dollars per million tokens, {@code input} and {@code output} required (an embedding model's
 * {@code output} optional), and {@code tiers} a list of
 * {@code {"above_prompt_tokens", ...rates}} in ascending order. A rate is read exactly from the
 * number's text, never through a {@code double}. A member it does not know is refused rather than
 * skipped: a misspelt rate left out would silently charge the fallback rate.
 */
public final class PriceJson {
    private static final List<String> RATES = List.of("input", "cached_input", "cache_write", "output", "reasoning");
    private static final String TIERS = "tiers";
    private static final String ABOVE = "above_prompt_tokens";
    private static final BigDecimal LONGEST = BigDecimal.valueOf(Long.MAX_VALUE);

    private PriceJson() {
    }

    /** How the member names are spelt: a catalogue's snake_case, or configuration's kebab-case. */
    public enum Spelling {
        SNAKE_CASE, KEBAB_CASE;

        /** A member's name, given as snake_case, in this spelling. */
        public String of(String snakeCase) {
            return this == SNAKE_CASE ? snakeCase : snakeCase.replace('_', '-');
        }
    }

    /**
     * Reads the price, {@code output} required.
     *
     * @throws IllegalArgumentException saying what is wrong, naming members in {@code spelling}
     */
    public static ModelPrice read(JsonValue pricing, Spelling spelling) {
        return read(pricing, spelling, false);
    }

    /**
     * Reads the price; when {@code outputOptional} (an embedding model's, which writes no tokens), a
     * price that leaves out {@code output} charges nothing for output.
     *
     * @throws IllegalArgumentException saying what is wrong, naming members in {@code spelling}
     */
    public static ModelPrice read(JsonValue pricing, Spelling spelling, boolean outputOptional) {
        JsonObject price = object(pricing, "a price is an object of rates");
        requireKnown(price, members(spelling, TIERS), "a price");
        List<Tier> tiers = new ArrayList<>();
        JsonValue list = price.get(spelling.of(TIERS));
        if (list != null) {
            if (!(list instanceof JsonArray array)) {
                throw new IllegalArgumentException("'" + spelling.of(TIERS) + "' must be an array of tiers, not "
                        + describe(list));
            }
            for (int i = 0; i < array.size(); i++) {
                tiers.add(tier(array.get(i), i + 1, spelling, outputOptional));
            }
        }
        return new ModelPrice(rates(price, spelling, "", outputOptional), tiers);
    }

    private static Tier tier(JsonValue value, int number, Spelling spelling, boolean outputOptional) {
        String where = "tier " + number + ": ";
        JsonObject tier = object(value, where + "a tier is an object {" + spelling.of(ABOVE) + ", ...rates}");
        requireKnown(tier, members(spelling, ABOVE), where + "a tier");
        JsonValue above = tier.get(spelling.of(ABOVE));
        if (above == null) {
            throw new IllegalArgumentException(where + "there is no '" + spelling.of(ABOVE) + "'");
        }
        BigDecimal tokens = above instanceof JsonNumber count ? count.bigDecimalValue() : null;
        // Compared, not converted: a threshold such as 1e999999999 must not build its digits.
        if (tokens == null || tokens.signum() <= 0 || tokens.stripTrailingZeros().scale() > 0
                || tokens.compareTo(LONGEST) > 0) {
            throw new IllegalArgumentException(where + "'" + spelling.of(ABOVE)
                    + "' must be a positive whole number of prompt tokens, not " + describe(above));
        }
        return new Tier(tokens.longValueExact(), rates(tier, spelling, where, outputOptional));
    }

    private static Rates rates(JsonObject object, Spelling spelling, String where, boolean outputOptional) {
        BigDecimal output = rate(object, spelling, "output", !outputOptional, where);
        return Rates.of(rate(object, spelling, "input", true, where), rate(object, spelling, "cached_input", false, where),
                rate(object, spelling, "cache_write", false, where), output != null ? output : BigDecimal.ZERO,
                rate(object, spelling, "reasoning", false, where));
    }

    private static BigDecimal rate(JsonObject object, Spelling spelling, String snakeName, boolean required,
                                   String where) {
        String name = spelling.of(snakeName);
        JsonValue value = object.get(name);
        if (value == null) {
            if (required) {
                throw new IllegalArgumentException(where + "there is no '" + name + "'");
            }
            return null;
        }
        if (!(value instanceof JsonNumber number) || number.bigDecimalValue().signum() < 0) {
            throw new IllegalArgumentException(where + "'" + name
                    + "' must be a number of US dollars per million tokens, not negative, not " + describe(value));
        }
        return number.bigDecimalValue();
    }

    /** The rates' names and one more, in {@code spelling}. */
    private static Set<String> members(Spelling spelling, String more) {
        Set<String> known = new LinkedHashSet<>();
        RATES.forEach(rate -> known.add(spelling.of(rate)));
        known.add(spelling.of(more));
        return known;
    }

    private static void requireKnown(JsonObject object, Set<String> known, String what) {
        for (String member : object.keySet()) {
            if (!known.contains(member)) {
                throw new IllegalArgumentException("'" + member + "' is not a member of " + what + "; its members are "
                        + String.join(", ", known));
            }
        }
    }

    private static JsonObject object(JsonValue value, String expected) {
        if (value instanceof JsonObject object) {
            return object;
        }
        throw new IllegalArgumentException(expected + ", not " + describe(value));
    }

    /** A JSON value as a message names it: its kind, and the value when it is a scalar. */
    static String describe(JsonValue value) {
        return switch (value.getValueType()) {
            case STRING -> "the string " + value;
            case NUMBER -> "the number " + value;
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            default -> value.toString();
        };
    }
}
