package io.aigw.runtime.config;

import io.helidon.config.Config;
import io.helidon.config.ConfigException;
import java.net.URI;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One entry of {@code providers.<name>.keys}: an upstream key of the provider's pool.
 *
 * @param name    shown in records, logs, metrics and the admin API in place of the key, which never is
 * @param apiKey  the key
 * @param weight  its share of the requests among the healthy keys, 1 unless set
 * @param baseUrl its own base URL, when it is not the provider's (another region, an Azure-style deployment)
 * @param rpm     requests a minute the upstream allows the key: past them, the other keys are chosen first
 * @param tpm     tokens a minute the upstream allows the key, as {@code rpm}
 */
public record PoolKey(String name, Secret apiKey, int weight, Optional<URI> baseUrl, OptionalLong rpm,
                      OptionalLong tpm) {
    /** The name of the key of {@code providers.<name>.api-key} (or the vendor's variable). */
    public static final String DEFAULT_NAME = "default";
    /** A name goes into Redis keys, metric labels and log lines as it is. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    /**
     * Reads the entries under {@code node}.
     *
     * @param hasDefault whether the provider has an {@code api-key} too, which is named {@link #DEFAULT_NAME}
     * @throws ConfigurationException naming the entry and what is wrong with it, never its key
     */
    static List<PoolKey> readAll(Config node, String path, boolean hasDefault) {
        List<PoolKey> keys = node.asNodeList().orElse(List.of()).stream().map(entry -> read(entry, path)).toList();
        Set<String> names = new HashSet<>();
        if (hasDefault) {
            names.add(DEFAULT_NAME);
        }
        for (PoolKey key : keys) {
            if (!names.add(key.name())) {
                throw new ConfigurationException("Two upstream keys of " + path + " are named '" + key.name() + "'"
                        + (key.name().equals(DEFAULT_NAME) ? " (the api-key's name)" : "") + ": each needs its own.");
            }
        }
        return keys;
    }

    private static PoolKey read(Config entry, String path) {
        String name = entry.get("name").asString().orElseThrow(() -> new ConfigurationException(
                "Every entry of " + path + " needs a 'name' (letters, digits, '.', '_' or '-')."));
        if (!NAME.matcher(name).matches()) {
            throw new ConfigurationException("The name '" + name + "' of an entry of " + path + " must be 1 to 64"
                    + " letters, digits, '.', '_' or '-'.");
        }
        String where = "the entry '" + name + "' of " + path;
        Secret key = entry.get("api-key").asString().asOptional().filter(value -> !value.isBlank()).map(Secret::new)
                .orElseThrow(() -> new ConfigurationException(where + " needs an 'api-key'."));
        long weight = number(entry, "weight", where).orElse(1);
        if (weight < 1 || weight > 1000) {
            throw new ConfigurationException("The 'weight' of " + where + " must be from 1 to 1000, not " + weight);
        }
        Optional<URI> baseUrl = entry.get("base-url").asString().asOptional()
                .map(url -> ProviderConfig.parseUrl("the 'base-url' of " + where, url));
        return new PoolKey(name, key, (int) weight, baseUrl, positive(entry, "rpm", where),
                positive(entry, "tpm", where));
    }

    private static OptionalLong positive(Config entry, String member, String where) {
        OptionalLong value = number(entry, member, where);
        if (value.isPresent() && value.getAsLong() < 1) {
            throw new ConfigurationException("The '" + member + "' of " + where + " must be at least 1");
        }
        return value;
    }

    private static OptionalLong number(Config entry, String member, String where) {
        try {
            Optional<Long> value = entry.get(member).asLong().asOptional();
            return value.isPresent() ? OptionalLong.of(value.get()) : OptionalLong.empty();
        } catch (ConfigException e) {
            throw new ConfigurationException("The '" + member + "' of " + where + " must be a whole number");
        }
    }
}
