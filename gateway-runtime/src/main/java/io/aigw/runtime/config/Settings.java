package io.aigw.runtime.config;

import io.helidon.config.Config;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Supplier;

/**
 * Reads settings from the environment and the configuration file, the environment first.
 *
 * <p>Every configuration key is overridable by the environment variable spelt like it in upper
 * case with {@code .} and {@code -} as {@code _}: {@code gateway.max-body-size} by
 * {@code GATEWAY_MAX_BODY_SIZE}. One rule for every key means docs/configuration.md can document it once.
 */
public final class Settings {
    private final Config config;
    private final Map<String, String> environment;
    private final Supplier<Config> source;

    /** Settings of {@code config}, which {@link #reread()} keeps. */
    public Settings(Config config, Map<String, String> environment) {
        this(config, environment, () -> config);
    }

    private Settings(Config config, Map<String, String> environment, Supplier<Config> source) {
        this.config = config;
        this.environment = Map.copyOf(environment);
        this.source = source;
    }

    /** Settings of the configuration {@code source} makes, which {@link #reread()} asks for again. */
    public static Settings rereadable(Supplier<Config> source, Map<String, String> environment) {
        return new Settings(source.get(), environment, source);
    }

    /**
     * The settings as the configuration's source holds them now (the file as it is now), the same
     * environment over them: what a reload applies of the providers' configuration.
     */
    public Settings reread() {
        return new Settings(source.get(), environment, source);
    }

    /** Returns the environment variable that overrides {@code key}. */
    public static String environmentName(String key) {
        return key.toUpperCase(Locale.ROOT).replace('.', '_').replace('-', '_');
    }

    /** Returns the value of {@code key}, or empty when neither the environment nor the file sets it. */
    public Optional<String> get(String key) {
        return environment(environmentName(key)).or(() -> config.get(key).asString().asOptional())
                .filter(value -> !value.isBlank());
    }

    /** Returns the value of a named environment variable, empty when unset or blank. */
    public Optional<String> environment(String name) {
        return Optional.ofNullable(environment.get(name)).filter(value -> !value.isBlank());
    }

    public String get(String key, String defaultValue) {
        return get(key).orElse(defaultValue);
    }

    public int getInt(String key, int defaultValue) {
        return get(key).map(value -> parseInt(key, value)).orElse(defaultValue);
    }

    /** Returns the whole number {@code key} holds, or empty when neither the environment nor the file sets it. */
    public OptionalInt getInt(String key) {
        Optional<String> value = get(key);
        return value.isPresent() ? OptionalInt.of(parseInt(key, value.get())) : OptionalInt.empty();
    }

    public long getLong(String key, long defaultValue) {
        return get(key).map(value -> parseLong(key, value)).orElse(defaultValue);
    }

    public boolean getBoolean(String key, boolean defaultValue) {
        return get(key).map(value -> parseBoolean(key, value)).orElse(defaultValue);
    }

    /** Reads a duration such as {@code 500ms}, {@code 10s}, {@code 2m}, {@code 1h} or {@code PT10S}. */
    public Duration getDuration(String key, Duration defaultValue) {
        return get(key).map(value -> parseDuration(key, value)).orElse(defaultValue);
    }

    /** Returns the leaves under {@code key} as a map, in file order (for header maps and the like). */
    public Map<String, String> getMap(String key) {
        Map<String, String> map = new LinkedHashMap<>();
        config.get(key).asNodeList().orElse(List.of())
                .forEach(node -> node.asString().ifPresent(value -> map.put(node.name(), value)));
        return map;
    }

    /** Returns the configuration node under {@code key}, for Helidon components that read their own. */
    public Config node(String key) {
        return config.get(key);
    }

    static Duration parseDuration(String key, String text) {
        String value = text.strip().toLowerCase(Locale.ROOT);
        try {
            if (value.startsWith("p")) {
                return Duration.parse(value.toUpperCase(Locale.ROOT));
            }
            if (value.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(value.substring(0, value.length() - 2).strip()));
            }
            long amount = Long.parseLong(value.substring(0, value.length() - 1).strip());
            return switch (value.charAt(value.length() - 1)) {
                case 's' -> Duration.ofSeconds(amount);
                case 'm' -> Duration.ofMinutes(amount);
                case 'h' -> Duration.ofHours(amount);
                default -> throw new NumberFormatException();
            };
        } catch (RuntimeException e) {
            throw new ConfigurationException(key + " must be a duration such as 500ms, 10s, 2m or PT10S, not '"
                    + text + "'");
        }
    }

    private static int parseInt(String key, String value) {
        try {
            return Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new ConfigurationException(key + " must be a whole number, not '" + value + "'");
        }
    }

    private static long parseLong(String key, String value) {
        try {
            return Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new ConfigurationException(key + " must be a whole number, not '" + value + "'");
        }
    }

    private static boolean parseBoolean(String key, String value) {
        return switch (value.strip().toLowerCase(Locale.ROOT)) {
            case "true", "yes", "on" -> true;
            case "false", "no", "off" -> false;
            default -> throw new ConfigurationException(key + " must be true or false, not '" + value + "'");
        };
    }
}
