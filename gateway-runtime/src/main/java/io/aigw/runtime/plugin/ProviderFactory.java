package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.Settings;
import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import io.helidon.config.Config;
import io.helidon.config.ConfigException;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Turns discovered plugins into {@link Provider}s: each plugin's declaration with the settings under
 * {@code providers.<name>} applied, where {@code <name>} is the prefix the plugin declared.
 * A vendor's own environment variable ({@code OPENAI_API_KEY}) wins over everything else.
 */
public final class ProviderFactory {
    private static final System.Logger LOG = System.getLogger(ProviderFactory.class.getName());

    private final Settings settings;

    public ProviderFactory(Settings settings) {
        this.settings = settings;
    }

    /** Returns the enabled providers; a plugin whose declaration is invalid is reported and skipped. */
    public List<Provider> create(List<DiscoveredPlugin> plugins) {
        List<Provider> providers = new ArrayList<>();
        for (DiscoveredPlugin discovered : plugins) {
            ProviderDescriptor descriptor;
            try {
                descriptor = discovered.plugin().descriptor();
            } catch (RuntimeException e) {
                LOG.log(Level.ERROR, "The plugin " + discovered.source() + " declares an invalid provider and is"
                        + " skipped: " + e.getMessage());
                continue;
            }
            String key = "providers." + descriptor.prefix();
            if (settings.getBoolean(key + ".enabled", true)) {
                providers.add(create(discovered, descriptor, key));
            } else {
                LOG.log(Level.INFO, "Provider " + descriptor.prefix() + " is disabled by " + key + ".enabled");
            }
        }
        return providers;
    }

    private Provider create(DiscoveredPlugin discovered, ProviderDescriptor descriptor, String key) {
        ProviderPlugin plugin = discovered.plugin();
        String prefix = settings.get(key + ".prefix", descriptor.prefix());
        if (prefix.contains("/")) {
            throw new ConfigurationException(key + ".prefix must not contain '/': " + prefix);
        }
        Optional<UpstreamKey> apiKey = settings.environment(descriptor.apiKeyVariable())
                .or(() -> settings.get(key + ".api-key"))
                .map(UpstreamKey::new);
        URI baseUrl = settings.environment(descriptor.baseUrlVariable())
                .or(() -> settings.get(key + ".base-url"))
                .map(url -> parseUrl(key + ".base-url", url))
                .orElse(descriptor.baseUrl());
        Map<String, String> headers = new LinkedHashMap<>(plugin.extraHeaders());
        headers.putAll(settings.getMap(key + ".headers"));
        return new Provider(descriptor.prefix(), prefix, descriptor.stripsPrefix(), descriptor.catchAll(),
                settings.get(key + ".default-model", descriptor.defaultModel()),
                settings.getInt(key + ".priority", descriptor.priority()),
                baseUrl, apiKey, descriptor.apiKeyVariable(), Map.copyOf(headers),
                Set.copyOf(plugin.unsupportedFields()), catalogue(discovered, key), discovered.source());
    }

    /** The plugin's shipped catalogue, with the entries configured under {@code <key>.models} added or replacing. */
    private List<ModelEntry> catalogue(DiscoveredPlugin discovered, String key) {
        Map<String, ModelEntry> models = new LinkedHashMap<>();
        discovered.plugin().catalogue()
                .map(url -> CatalogueReader.read(url, discovered.source()))
                .orElse(List.of())
                .forEach(model -> models.put(model.id(), model));
        for (Config node : settings.node(key + ".models").asNodeList().orElse(List.of())) {
            ModelEntry model = configured(node, key);
            models.put(model.id(), model);
        }
        return List.copyOf(models.values());
    }

    private static ModelEntry configured(Config node, String key) {
        String id = node.get("id").asString().orElseThrow(
                () -> new ConfigurationException("Every entry of " + key + ".models needs an 'id'."));
        long contextLength;
        try {
            contextLength = node.get("context-length").asLong().orElseThrow(() -> new ConfigurationException(
                    "The entry '" + id + "' of " + key + ".models needs a 'context-length'."));
        } catch (ConfigException e) {
            // Helidon's own message names neither the provider nor the model.
            throw new ConfigurationException("The 'context-length' of the entry '" + id + "' of " + key
                    + ".models must be a whole number of tokens.");
        }
        return new ModelEntry(id, node.get("name").asString().orElse(id), contextLength,
                node.get("owned-by").asString().orElse(key.substring("providers.".length())));
    }

    private static URI parseUrl(String key, String value) {
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
}
