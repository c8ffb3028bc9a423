package io.aigw.runtime.plugin;

import io.aigw.runtime.config.Aliases;
import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.ConfigurationMembers;
import io.aigw.runtime.config.ModelKind;
import io.aigw.runtime.config.PluginsConfig;
import io.aigw.runtime.config.PoolKey;
import io.aigw.runtime.config.ProviderConfig;
import io.aigw.runtime.config.ReservedHeaders;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.transport.HeaderSyntax;
import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.UpstreamApi;
import java.lang.System.Logger.Level;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeSet;

/**
 * Turns discovered plugins into {@link Provider}s: each plugin's declaration with its
 * {@link ProviderConfig} applied, read once per plugin since the keys are named after the prefix
 * the plugin declares.
 */
public final class ProviderFactory {
    private static final System.Logger LOG = System.getLogger(ProviderFactory.class.getName());

    /** The {@code created} of models whose catalogue has no build time: one the process keeps while it runs. */
    private static final Instant GATEWAY_STARTED = Instant.ofEpochMilli(
            ManagementFactory.getRuntimeMXBean().getStartTime());

    private final Settings settings;
    private final PluginCalls calls;

    /** @param settings the providers' configuration, and {@code gateway.plugins.call-timeout} */
    public ProviderFactory(Settings settings) {
        this.settings = settings;
        this.calls = new PluginCalls(PluginsConfig.callTimeout(settings));
    }

    /**
     * A factory of the providers' configuration as the file holds it now: a reload applies what
     * changed of {@code providers.*} (keys, pools, models, headers) and of {@code gateway.aliases}.
     *
     * @throws ConfigurationException when the file now holds a key the gateway does not read
     */
    public ProviderFactory reread() {
        Settings now = settings.reread();
        ConfigurationMembers.requireKnown(now);
        return new ProviderFactory(now);
    }

    /**
     * Returns the enabled providers.
     *
     * @throws ConfigurationException naming the plugin whose declaration cannot be used: a call that
     *                                fails or does not answer in time, a header the gateway writes itself
     */
    public List<Provider> create(List<DiscoveredPlugin> plugins) {
        List<Provider> providers = new ArrayList<>();
        for (DiscoveredPlugin discovered : plugins) {
            PluginChecks.Declarations declared = PluginChecks.declarations(discovered.plugin(), discovered.source(),
                    calls);
            String name = declared.descriptor().prefix();
            if (ProviderConfig.enabled(settings, name)) {
                providers.add(create(discovered, declared, ProviderConfig.read(settings, name,
                        declared.descriptor().apiKeyVariable(), declared.descriptor().baseUrlVariable())));
            } else {
                LOG.log(Level.INFO, "Provider " + name + " is disabled by providers." + name + ".enabled");
            }
        }
        return providers;
    }

    /** The aliases of the same configuration ({@code gateway.aliases}), which a reload reads again too. */
    public Aliases aliases() {
        return Aliases.read(settings);
    }

    /**
     * Says which {@code providers.<name>} sections no plugin of {@code plugins} declares. Such a
     * section is kept for a plugin installed later, not refused; but a misspelt name leaves its
     * provider unconfigured.
     */
    public void warnOfUnclaimedSections(List<DiscoveredPlugin> plugins) {
        Set<String> declared = new TreeSet<>();
        for (DiscoveredPlugin discovered : plugins) {
            // A plugin whose descriptor fails was refused already, with the reason.
            if (calls.call(discovered.source() + " descriptor()", discovered.plugin()::descriptor)
                    instanceof PluginCalls.Answer.Returned<ProviderDescriptor>(ProviderDescriptor descriptor)
                    && descriptor != null) {
                declared.add(descriptor.prefix());
            }
        }
        ProviderConfig.sections(settings).stream()
                .filter(name -> !declared.contains(name))
                .forEach(name -> LOG.log(Level.WARNING, "providers." + name + " configures no installed plugin"
                        + " (installed: " + String.join(", ", declared) + "): it applies once a plugin declaring"
                        + " the prefix '" + name + "' is installed."));
    }

    /** The plugin's declaration with what configuration says of it applied. */
    private static Provider create(DiscoveredPlugin discovered, PluginChecks.Declarations declared,
                                   ProviderConfig config) {
        ProviderDescriptor descriptor = declared.descriptor();
        declared.extraHeaders().keySet().stream().filter(ReservedHeaders::isReserved).findFirst()
                .ifPresent(header -> {
                    throw new ConfigurationException("The plugin " + discovered.source() + " is refused: its"
                            + " extraHeaders() sets '" + header + "', which cannot be: " + ReservedHeaders.RULE + ".");
                });
        Optional<CatalogueReader.Catalogue> shipped = declared.catalogue()
                .map(url -> CatalogueReader.read(url, discovered.source()));
        Map<String, String> headers = new LinkedHashMap<>(declared.extraHeaders());
        headers.putAll(config.headers());
        requireWritable(descriptor.prefix(), headers, config);
        URI baseUrl = config.baseUrl().orElse(descriptor.baseUrl());
        return new Provider(descriptor.prefix(), config.prefix().orElse(descriptor.prefix()),
                descriptor.stripsPrefix(), descriptor.catchAll(),
                config.defaultModel().orElse(descriptor.defaultModel()),
                config.priority().orElse(descriptor.priority()),
                baseUrl,
                keys(config, baseUrl, declared.apis()),
                descriptor.apiKeyVariable(), Map.copyOf(headers), Set.copyOf(declared.unsupportedFields()),
                catalogue(shipped, descriptor.prefix(), config),
                new PriceOrigin(shipped.flatMap(CatalogueReader.Catalogue::pricesAsOf),
                        shipped.flatMap(CatalogueReader.Catalogue::pricesSource), configuredPrices(config)),
                shipped.flatMap(CatalogueReader.Catalogue::built).orElse(GATEWAY_STARTED).getEpochSecond(),
                discovered.source(), Provider.urls(baseUrl, declared.apis()), declared.homeFor());
    }

    /**
     * Every request to the provider carries these headers and its key as they are, unchecked: a line
     * break in one (a key read from a file with its newline) is refused here, once, with a message
     * that names the header but never shows its value.
     */
    private static void requireWritable(String provider, Map<String, String> headers, ProviderConfig config) {
        headers.forEach((name, value) -> {
            if (!HeaderSyntax.isName(name) || !HeaderSyntax.isValue(value)) {
                throw new ConfigurationException("The header '" + name + "' of provider " + provider + " cannot be"
                        + " sent: a header's name is letters, digits and !#$%&'*+-.^_`|~ only, and its value holds"
                        + " no line break or other control character.");
            }
        });
        if (config.apiKey().filter(key -> !HeaderSyntax.isValue(key.value())).isPresent()) {
            throw new ConfigurationException("The key of provider " + provider + " holds a line break or another"
                    + " control character, which a header cannot carry: was it read from a file with its newline?");
        }
        config.keys().stream().filter(key -> !HeaderSyntax.isValue(key.apiKey().value())).findFirst()
                .ifPresent(key -> {
                    throw new ConfigurationException("The key '" + key.name() + "' of providers." + provider + ".keys"
                            + " holds a line break or another control character, which a header cannot carry.");
                });
    }

    /**
     * The provider's pool: the key of {@code api-key} (or the vendor's variable), named
     * {@code default}, then those of {@code keys}, each at its own base URL or the provider's.
     */
    private static List<UpstreamKey> keys(ProviderConfig config, URI baseUrl, Map<UpstreamApi, String> paths) {
        List<UpstreamKey> keys = new ArrayList<>();
        config.apiKey().ifPresent(key -> keys.add(new UpstreamKey(PoolKey.DEFAULT_NAME, key.value(), 1, baseUrl,
                Provider.urls(baseUrl, paths), OptionalLong.empty(), OptionalLong.empty())));
        for (PoolKey key : config.keys()) {
            URI url = key.baseUrl().orElse(baseUrl);
            keys.add(new UpstreamKey(key.name(), key.apiKey().value(), key.weight(), url, Provider.urls(url, paths),
                    key.rpm(), key.tpm()));
        }
        return List.copyOf(keys);
    }

    /**
     * The plugin's shipped catalogue, with the configured entries added, or changing by id what they
     * set of a shipped one (its name, context length, owner, price or kind).
     */
    private static List<ModelEntry> catalogue(Optional<CatalogueReader.Catalogue> shipped, String name,
                                              ProviderConfig config) {
        Map<String, ModelEntry> models = new LinkedHashMap<>();
        shipped.ifPresent(catalogue -> catalogue.models().forEach(model -> models.put(model.id(), model)));
        for (ProviderConfig.Model model : config.models()) {
            models.put(model.id(), configured(model, Optional.ofNullable(models.get(model.id())), name));
        }
        logPrices(name, shipped, models.values(), config);
        return List.copyOf(models.values());
    }

    /** A configured entry over the shipped one of its id: what it leaves out is the shipped entry's, else the default. */
    private static ModelEntry configured(ProviderConfig.Model model, Optional<ModelEntry> shipped, String provider) {
        long contextLength = model.contextLength().isPresent() ? model.contextLength().getAsLong()
                : shipped.map(ModelEntry::contextLength).orElseThrow(() -> new ConfigurationException("The entry '"
                + model.id() + "' of providers." + provider + ".models is not in the plugin's catalogue, so it needs"
                + " a 'context-length'."));
        return new ModelEntry(model.id(), model.name().or(() -> shipped.map(ModelEntry::name)).orElse(model.id()),
                contextLength, model.ownedBy().or(() -> shipped.map(ModelEntry::ownedBy)).orElse(provider),
                model.price().or(() -> shipped.flatMap(ModelEntry::price)),
                shipped.map(ModelEntry::maxOutputTokens).orElse(OptionalLong.empty()),
                model.kind().or(() -> shipped.map(ModelEntry::kind)).orElse(ModelKind.CHAT));
    }

    private static int configuredPrices(ProviderConfig config) {
        return (int) config.models().stream().filter(model -> model.price().isPresent()).count();
    }

    /** Says how many models have a price, where the catalogue's come from, and how many configuration sets. */
    private static void logPrices(String name, Optional<CatalogueReader.Catalogue> shipped,
                                  Collection<ModelEntry> models, ProviderConfig config) {
        long priced = models.stream().filter(model -> model.price().isPresent()).count();
        if (priced == 0) {
            return;
        }
        long configured = configuredPrices(config);
        LOG.log(Level.INFO, "Prices of " + name + ": " + priced + " of " + models.size() + " models priced"
                + shipped.flatMap(CatalogueReader.Catalogue::pricesAsOf).map(day -> ", as of " + day).orElse("")
                + shipped.flatMap(CatalogueReader.Catalogue::pricesSource).map(source -> " from " + source).orElse("")
                + (configured > 0 ? "; " + configured + " set by providers." + name + ".models" : ""));
    }
}
