package io.aigw.runtime.plugin;

import io.aigw.runtime.pricing.ModelPrice;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An installed provider as the gateway uses it: its plugin's declaration with configuration applied.
 *
 * @param name              the prefix the plugin declared; the provider's name in configuration and logs
 * @param prefix            the prefix routed to it, which configuration may rename
 * @param apiKey            the upstream key, empty when none is configured
 * @param apiKeyVariable    the environment variable that would hold the key, for error messages
 * @param headers           headers sent upstream on every request (the plugin's, then configured ones)
 * @param unsupportedFields top-level request fields removed before forwarding
 * @param catalogue         the provider's models, ids as the upstream knows them
 * @param modelsCreated     the Unix time, in seconds, its models are listed with as OpenAI's
 *                          {@code created}: when its plugin's catalogue was built (the time of the
 *                          catalogue's entry in the plugin jar), else when the gateway started;
 *                          catalogues give no dates of their own
 * @param source            the jar (or class) the plugin came from, for diagnostics
 */
public record Provider(
        String name,
        String prefix,
        boolean stripsPrefix,
        boolean catchAll,
        String defaultModel,
        int priority,
        URI baseUrl,
        Optional<UpstreamKey> apiKey,
        String apiKeyVariable,
        Map<String, String> headers,
        Set<String> unsupportedFields,
        List<ModelEntry> catalogue,
        long modelsCreated,
        String source) {

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

    /** Returns the URL chat completions are posted to. */
    public URI chatCompletionsUrl() {
        String base = baseUrl.toString();
        return URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/chat/completions");
    }
}
