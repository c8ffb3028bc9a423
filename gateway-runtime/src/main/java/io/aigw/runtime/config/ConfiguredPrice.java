package io.aigw.runtime.config;

import io.aigw.runtime.error.Jsons;
import io.helidon.config.Config;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonValue;
import java.math.BigDecimal;

/**
 * A {@code pricing} node of configuration as the JSON a catalogue writes, for
 * {@link io.aigw.runtime.pricing.PriceJson} to read by the same rules. Configuration holds every
 * value as text: one that is a number becomes that number, read exactly from its text; any other
 * stays text, which the price's rules then refuse by name.
 */
final class ConfiguredPrice {
    private static final String TIERS = "tiers";

    private ConfiguredPrice() {
    }

    /** The price node as JSON: an object of rates and a list of tiers, or what stands in its place. */
    static JsonValue json(Config pricing) {
        if (pricing.type() != Config.Type.OBJECT) {
            return scalar(pricing);
        }
        JsonObjectBuilder price = Jsons.PROVIDER.createObjectBuilder();
        for (Config member : pricing.asNodeList().orElseThrow()) {
            price.add(member.name(), member.name().equals(TIERS) ? tiers(member) : scalar(member));
        }
        return price.build();
    }

    /** The tiers in order; a list of configuration may come as an object of numbered members. */
    private static JsonValue tiers(Config tiers) {
        if (tiers.type() == Config.Type.VALUE) {
            return scalar(tiers);
        }
        JsonArrayBuilder list = Jsons.PROVIDER.createArrayBuilder();
        for (Config tier : tiers.asNodeList().orElseThrow()) {
            if (tier.type() == Config.Type.VALUE) {
                list.add(scalar(tier));
                continue;
            }
            JsonObjectBuilder rates = Jsons.PROVIDER.createObjectBuilder();
            tier.asNodeList().orElseThrow().forEach(member -> rates.add(member.name(), scalar(member)));
            list.add(rates);
        }
        return list.build();
    }

    private static JsonValue scalar(Config node) {
        if (node.type() != Config.Type.VALUE) {
            return node.type() == Config.Type.LIST ? JsonValue.EMPTY_JSON_ARRAY : JsonValue.EMPTY_JSON_OBJECT;
        }
        String text = node.asString().orElse("").strip();
        try {
            return Jsons.PROVIDER.createValue(new BigDecimal(text));
        } catch (NumberFormatException e) {
            return Jsons.PROVIDER.createValue(text);
        }
    }
}
