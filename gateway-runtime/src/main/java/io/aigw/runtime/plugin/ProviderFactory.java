package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ProviderConfig;
import io.aigw.runtime.config.Settings;
import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns discovered plugins into {@link Provider}s: each plugin's declaration with its
 * {@link ProviderConfig} applied, read once per plugin since the keys are named after the prefix
 * the plugin declares.
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
            String name = descriptor.prefix();
            if (ProviderConfig.enabled(settings, name)) {
                providers.add(create(discovered, descriptor, ProviderConfig.read(settings, name,
                        descriptor.apiKeyVariable(), descriptor.baseUrlVariable())));
            } else {
                LOG.log(Level.INFO, "Provider " + name + " is disabled by providers." + name + ".enabled");
            }
        }
        return providers;
    }

    /** The plugin's declaration with what configuration says of it applied. */
    private static Provider create(DiscoveredPlugin discovered, ProviderDescriptor descriptor, ProviderConfig config) {
        ProviderPlugin plugin = discovered.plugin();
        Map<String, String> headers = new LinkedHashMap<>(plugin.extraHeaders());
        headers.putAll(config.headers());
        return new Provider(descriptor.prefix(), config.prefix().orElse(descriptor.prefix()),
                descriptor.stripsPrefix(), descriptor.catchAll(),
                config.defaultModel().orElse(descriptor.defaultModel()),
                config.priority().orElse(descriptor.priority()),
                config.baseUrl().orElse(descriptor.baseUrl()),
                config.apiKey().map(key -> new UpstreamKey(key.value())),
                descriptor.apiKeyVariable(), Map.copyOf(headers), Set.copyOf(plugin.unsupportedFields()),
                catalogue(discovered, config), discovered.source());
    }

    /** The plugin's shipped catalogue, with the configured entries added or replacing by id. */
    private static List<ModelEntry> catalogue(DiscoveredPlugin discovered, ProviderConfig config) {
        Map<String, ModelEntry> models = new LinkedHashMap<>();
        discovered.plugin().catalogue()
                .map(url -> CatalogueReader.read(url, discovered.source()))
                .orElse(List.of())
                .forEach(model -> models.put(model.id(), model));
        for (ProviderConfig.Model model : config.models()) {
            models.put(model.id(), new ModelEntry(model.id(), model.name(), model.contextLength(), model.ownedBy()));
        }
        return List.copyOf(models.values());
    }
}
