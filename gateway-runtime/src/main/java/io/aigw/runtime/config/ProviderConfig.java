package io.aigw.runtime.config;

import io.aigw.runtime.pricing.ModelPrice;
import io.aigw.runtime.pricing.PriceJson;
import io.helidon.config.Config;
import io.helidon.config.ConfigException;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What configuration says of one provider, {@code providers.<name>.*}, where {@code <name>} is the
 * prefix its plugin declared. Each part is empty where configuration is silent and the plugin's own
 * declaration applies. The vendor's variables ({@code OPENAI_API_KEY}, {@code OPENAI_BASE_URL}) win
 * over the keys.
 *
 * @param apiKey  the one key of {@code api-key} (or the vendor's variable), which the pool holds as
 *                {@link PoolKey#DEFAULT_NAME} beside {@code keys}
 * @param keys    {@code keys}: the upstream keys of the provider's pool, in file order
 * @param headers sent upstream on every request, after the plugin's own
 * @param models  catalogue entries added to the plugin's, or changing one of the same id
 */
public record ProviderConfig(Optional<String> prefix, Optional<Secret> apiKey, List<PoolKey> keys,
                             Optional<URI> baseUrl, Optional<String> defaultModel, OptionalInt priority,
                             Map<String, String> headers, List<Model> models) {

    /** The names of the {@code providers.<name>} sections of the configuration file, in its order. */
    public static List<String> sections(Settings settings) {
        return settings.node("providers").asNodeList().orElse(List.of()).stream().map(Config::name).toList();
    }

    /** Whether {@code providers.<name>.enabled} leaves the provider on (the default). */
    public static boolean enabled(Settings settings, String name) {
        return settings.getBoolean(key(name, "enabled"), true);
    }

    /**
     * Reads an enabled provider's settings.
     *
     * @param apiKeyVariable  the vendor's variable for the key, which wins over {@code api-key}
     * @param baseUrlVariable the vendor's variable for the base URL, which wins over {@code base-url}
     * @throws ConfigurationException naming the key whose value cannot be used, or a header the
     *                                gateway writes itself ({@link ReservedHeaders})
     */
    public static ProviderConfig read(Settings settings, String name, String apiKeyVariable,
                                      String baseUrlVariable) {
        Optional<String> prefix = settings.get(key(name, "prefix"));
        if (prefix.isPresent() && prefix.get().contains("/")) {
            throw new ConfigurationException(key(name, "prefix") + " must not contain '/': " + prefix.get());
        }
        Optional<Secret> apiKey = settings.environment(apiKeyVariable)
                .or(() -> settings.get(key(name, "api-key")))
                .map(Secret::new);
        Optional<URI> baseUrl = settings.environment(baseUrlVariable)
                .or(() -> settings.get(key(name, "base-url")))
                .map(url -> parseUrl(key(name, "base-url"), url));
        Map<String, String> headers = settings.getMap(key(name, "headers"));
        headers.keySet().stream().filter(ReservedHeaders::isReserved).findFirst().ifPresent(header -> {
            throw new ConfigurationException(key(name, "headers") + " sets '" + header + "' for provider " + name
                    + ", which cannot be: " + ReservedHeaders.RULE + ". Remove it from " + key(name, "headers") + ".");
        });
        Optional<String> defaultModel = settings.get(key(name, "default-model"));
        OptionalInt priority = settings.getInt(key(name, "priority"));
        List<Model> models = settings.node(key(name, "models")).asNodeList().orElse(List.of()).stream()
                .map(node -> Model.read(node, name))
                .toList();
        List<PoolKey> keys = PoolKey.readAll(settings.node(key(name, "keys")), key(name, "keys"),
                apiKey.isPresent());
        return new ProviderConfig(prefix, apiKey, keys, baseUrl, defaultModel, priority, Map.copyOf(headers), models);
    }

    static String key(String name, String setting) {
        return "providers." + name + "." + setting;
    }

    static URI parseUrl(String key, String value) {
        try {
            URI uri = URI.create(value.strip());
            if (!"http".equals(uri.getScheme()) && !"https".equals(uri.getScheme())) {
                throw new IllegalArgumentException();
            }
            return uri;
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException(key + " must be an http(s) URL, not '" + value + "'");
        }
    }

    /**
     * One entry of {@code providers.<name>.models}: a model the plugin's catalogue lacks, or what
     * configuration changes of one it has. What the entry leaves out is empty.
     *
     * @param id            the id the upstream knows
     * @param contextLength the context window in tokens; a model the catalogue lacks needs one
     * @param price         its {@code pricing}, rates in US dollars per million tokens as in a catalogue,
     *                      members spelt {@code cached-input}, {@code cache-write},
     *                      {@code above-prompt-tokens}; {@code output} may be left out where the entry
     *                      says {@code kind: embedding}
     * @param kind          its {@code kind}, {@code chat} or {@code embedding}
     */
    public record Model(String id, Optional<String> name, OptionalLong contextLength, Optional<String> ownedBy,
                        Optional<ModelPrice> price, Optional<ModelKind> kind) {

        static Model read(Config node, String provider) {
            String key = ProviderConfig.key(provider, "models");
            String id = node.get("id").asString().orElseThrow(
                    () -> new ConfigurationException("Every entry of " + key + " needs an 'id'."));
            OptionalLong contextLength;
            try {
                Optional<Long> tokens = node.get("context-length").asLong().asOptional();
                contextLength = tokens.isPresent() ? OptionalLong.of(tokens.get()) : OptionalLong.empty();
            } catch (ConfigException e) {
                // Helidon's own message names neither the provider nor the model.
                throw new ConfigurationException("The 'context-length' of the entry '" + id + "' of " + key
                        + " must be a whole number of tokens.");
            }
            Optional<String> kindText = node.get("kind").asString().asOptional();
            Optional<ModelKind> kind = kindText.map(text -> ModelKind.named(text).orElseThrow(
                    () -> new ConfigurationException("The 'kind' of the entry '" + id + "' of " + key + " is '"
                            + text + "': " + ModelKind.RULE + ".")));
            Optional<ModelPrice> price;
            try {
                price = node.get("pricing").exists()
                        ? Optional.of(PriceJson.read(ConfiguredPrice.json(node.get("pricing")),
                        PriceJson.Spelling.KEBAB_CASE, kind.equals(Optional.of(ModelKind.EMBEDDING))))
                        : Optional.empty();
            } catch (IllegalArgumentException e) {
                throw new ConfigurationException("The 'pricing' of the entry '" + id + "' of " + key + " cannot be"
                        + " used: " + e.getMessage());
            }
            return new Model(id, node.get("name").asString().asOptional(), contextLength,
                    node.get("owned-by").asString().asOptional(), price, kind);
        }
    }
}
