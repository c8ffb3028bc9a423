package io.aigw.runtime.plugin;

import io.aigw.runtime.pricing.ModelPrice;
import io.aigw.spi.UpstreamApi;
import java.net.URI;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An installed provider as the gateway uses it: its plugin's declaration with configuration applied.
 *
 * @param name              the prefix the plugin declared; the provider's name in configuration and logs
 * @param prefix            the prefix routed to it, which configuration may rename
 * @param keys              the upstream keys of its pool, none when no key is configured
 * @param apiKeyVariable    the environment variable that would hold the key, for error messages
 * @param headers           headers sent upstream on every request (the plugin's, then configured ones)
 * @param unsupportedFields top-level request fields removed before forwarding
 * @param catalogue         the provider's models, ids as the upstream knows them
 * @param priceOrigin       where the catalogue's prices come from, and how many configuration sets
 * @param modelsCreated     the Unix time, in seconds, its models are listed with as OpenAI's
 *                          {@code created}: when its plugin's catalogue was built (the time of the
 *                          catalogue's entry in the plugin jar), else when the gateway started;
 *                          catalogues give no dates of their own
 * @param source            the jar (or class) the plugin came from, for diagnostics
 * @param apis              the URL of each API the upstream serves: the base URL and the API's path
 * @param homeFor           the APIs whose model ids without a provider come to this provider
 */
public record Provider(
        String name,
        String prefix,
        boolean stripsPrefix,
        boolean catchAll,
        String defaultModel,
        int priority,
        URI baseUrl,
        List<UpstreamKey> keys,
        String apiKeyVariable,
        Map<String, String> headers,
        Set<String> unsupportedFields,
        List<ModelEntry> catalogue,
        PriceOrigin priceOrigin,
        long modelsCreated,
        String source,
        Map<UpstreamApi, URI> apis,
        Set<UpstreamApi> homeFor) {

    /** Whether an upstream key is configured: without one, nothing can be sent to it. */
    public boolean hasKey() {
        return !keys.isEmpty();
    }

    /** Returns the id a caller uses for one of this provider's models. */
    public String publicId(String upstreamModel) {
        return stripsPrefix ? prefix + "/" + upstreamModel : upstreamModel;
    }

    /**
     * Each provider's priced models by id, under the prefix usage records name the provider by: what
     * a {@link io.aigw.runtime.pricing.PriceBook} is made of.
     */
    public static Map<String, Map<String, ModelPrice>> prices(List<Provider> providers) {
        Map<String, Map<String, ModelPrice>> prices = new LinkedHashMap<>();
        for (Provider provider : providers) {
            Map<String, ModelPrice> models = new LinkedHashMap<>();
            provider.catalogue().forEach(model -> model.price().ifPresent(price -> models.put(model.id(), price)));
            prices.put(provider.prefix(), models);
        }
        return prices;
    }

    /** Whether the upstream serves {@code api}: a request on another API is refused before it is sent. */
    public boolean serves(UpstreamApi api) {
        return apis.containsKey(api);
    }

    /**
     * Returns the URL of {@code api} at this provider.
     *
     * @throws IllegalArgumentException when the provider does not {@link #serves serve} it
     */
    public URI url(UpstreamApi api) {
        URI url = apis.get(api);
        if (url == null) {
            throw new IllegalArgumentException(name + " does not serve " + api);
        }
        return url;
    }

    /** The URL of each API at {@code baseUrl}: the base without a trailing {@code /}, then the API's path. */
    public static Map<UpstreamApi, URI> urls(URI baseUrl, Map<UpstreamApi, String> paths) {
        String base = baseUrl.toString();
        String trimmed = base.endsWith("/") ? base.substring(0, base.length() - 1) : base;
        Map<UpstreamApi, URI> urls = new EnumMap<>(UpstreamApi.class);
        paths.forEach((api, path) -> urls.put(api, URI.create(trimmed + path)));
        return Collections.unmodifiableMap(urls);
    }
}
