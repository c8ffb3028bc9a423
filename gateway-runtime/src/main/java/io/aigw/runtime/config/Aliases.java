package io.aigw.runtime.config;

import io.aigw.runtime.text.Identifiers;
import io.helidon.config.Config;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code gateway.aliases}: model ids of the gateway's own, each standing for one model
 * ({@code fast: openai/gpt-5-mini}) or for an ordered list of them, the next tried when one fails
 * as {@code gateway/auto} moves on ({@code smart: [anthropic/claude-sonnet-4-5, openai/gpt-5]}).
 *
 * @param targets each alias's models, in order, as the file lists the aliases
 */
public record Aliases(Map<String, List<String>> targets) {
    /** No alias. */
    public static final Aliases NONE = new Aliases(Map.of());
    private static final int MAX_NAME = 128;

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
        Map<String, List<String>> aliases = new LinkedHashMap<>();
        for (Config alias : node.asNodeList().orElse(List.of())) {
            String name = alias.name();
            if (name.isBlank() || name.length() > MAX_NAME || name.chars().anyMatch(Character::isWhitespace)
                    || !Identifiers.hasOnlyShowableCharacters(name)) {
                throw new ConfigurationException("The alias '" + name + "' of gateway.aliases must be 1 to " + MAX_NAME
                        + " characters without spaces or control characters.");
            }
            List<String> targets = new ArrayList<>();
            if (alias.type() == Config.Type.VALUE) {
                alias.asString().ifPresent(targets::add);
            } else {
                alias.asNodeList().orElse(List.of()).forEach(entry -> entry.asString().ifPresent(targets::add));
            }
            targets.replaceAll(String::strip);
            if (targets.isEmpty() || targets.stream().anyMatch(String::isEmpty)) {
                throw new ConfigurationException("The alias '" + name + "' of gateway.aliases needs a model"
                        + " (fast: openai/gpt-5-mini) or a list of them, tried in order.");
            }
            aliases.put(name, List.copyOf(targets));
        }
        return new Aliases(Collections.unmodifiableMap(aliases));
    }
}
