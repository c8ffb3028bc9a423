package io.aigw.runtime.config;

import io.aigw.runtime.text.Identifiers;
import io.helidon.config.Config;
import io.helidon.config.ConfigException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code gateway.aliases}: model ids of the gateway's own, each standing for one model
 * ({@code fast: openai/gpt-5-mini}), for an ordered list of them, the next tried when one fails as
 * {@code gateway/auto} moves on ({@code smart: [anthropic/claude-sonnet-4-5, openai/gpt-5]}), or
 * for a weighted split, for a gradual move between models
 * ({@code canary: [{model: openai/gpt-5, weight: 9}, {model: openai/gpt-5-mini, weight: 1}]}):
 * the first model tried is drawn by weight among those with one, the others follow in order.
 *
 * @param targets each alias's models, in order, as the file lists the aliases
 */
public record Aliases(Map<String, List<Target>> targets) {
    /** No alias. */
    public static final Aliases NONE = new Aliases(Map.of());
    private static final int MAX_NAME = 128;

    /**
     * One model of an alias.
     *
     * @param weight its share of the requests the alias's split sends to it first; 0 when it is
     *               only tried after another failed
     */
    public record Target(String model, int weight) {
    }

    /** The models {@code alias} stands for, in order; empty when it is not an alias. */
    public List<String> models(String alias) {
        return targets.getOrDefault(alias, List.of()).stream().map(Target::model).toList();
    }

    /**
     * Reads {@code gateway.aliases}.
     *
     * @throws ConfigurationException naming the alias that cannot be used, and why
     */
    public static Aliases read(Settings settings) {
        Config node = settings.node("gateway.aliases");
        if (!node.exists()) {
            return NONE;
        }
        Map<String, List<Target>> aliases = new LinkedHashMap<>();
        for (Config alias : node.asNodeList().orElse(List.of())) {
            String name = alias.name();
            if (name.isBlank() || name.length() > MAX_NAME || name.chars().anyMatch(Character::isWhitespace)
                    || !Identifiers.hasOnlyShowableCharacters(name)) {
                throw new ConfigurationException("The alias '" + name + "' of gateway.aliases must be 1 to " + MAX_NAME
                        + " characters without spaces or control characters.");
            }
            List<Target> targets = new ArrayList<>();
            if (alias.type() == Config.Type.VALUE) {
                alias.asString().ifPresent(model -> targets.add(new Target(model.strip(), 0)));
            } else {
                alias.asNodeList().orElse(List.of()).forEach(entry -> targets.add(target(entry, name)));
            }
            if (targets.isEmpty() || targets.stream().anyMatch(target -> target.model().isEmpty())) {
                throw new ConfigurationException("The alias '" + name + "' of gateway.aliases needs a model"
                        + " (fast: openai/gpt-5-mini), a list of them tried in order, or a list of"
                        + " {model, weight} to split the requests by weight.");
            }
            aliases.put(name, List.copyOf(targets));
        }
        return new Aliases(Collections.unmodifiableMap(aliases));
    }

    private static Target target(Config entry, String alias) {
        if (entry.type() == Config.Type.VALUE) {
            return new Target(entry.asString().orElse("").strip(), 0);
        }
        String model = entry.get("model").asString().orElse("").strip();
        int weight;
        try {
            weight = entry.get("weight").asInt().orElse(0);
        } catch (ConfigException e) {
            weight = -1;
        }
        if (weight < 0 || weight > 1000) {
            throw new ConfigurationException("The weight of '" + model + "' in the alias '" + alias + "' of"
                    + " gateway.aliases must be a whole number from 0 (tried only after another failed) to 1000.");
        }
        return new Target(model, weight);
    }
}
