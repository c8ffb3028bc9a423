package io.aigw.spi;

import java.net.URL;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An upstream model provider: one that speaks the OpenAI Chat Completions wire format, and
 * possibly more of the APIs the gateway serves ({@link #apis()}).
 *
 * <p>The gateway finds implementations with {@link java.util.ServiceLoader} at startup, calls each
 * method once, and does all the work itself: the HTTP call, streaming, retries and fallback. A plugin
 * only <em>declares</em> what is particular to its provider, so it starts no threads, opens no
 * connections and reads no settings of its own; configuration may override everything it declares.
 * Each call is to return at once: the gateway bounds every call into a plugin in time (5 seconds by
 * default) and refuses the plugin, naming the call, when one throws anything or does not return in
 * time.
 *
 * <p>Only {@link #descriptor()} must be implemented. The other methods are optional hooks whose
 * defaults declare "nothing special".
 *
 * <h2>Versions</h2>
 * This SPI carries its own version, {@link #SPI_VERSION}, which changes only when the SPI does: a
 * minor step adds to it and keeps plugins built against an older version working. The SPI module
 * declares the same version, and {@code javac} records the version of every module a module
 * requires as it compiles it, so a plugin built as a module (with a {@code module-info.java} that
 * {@code requires io.aigw.spi}) carries the SPI version it was compiled against in its own
 * {@code module-info.class}, with no step of its own. The gateway reads it there when it discovers
 * the plugin and refuses a plugin built against a newer SPI than its own, naming both versions,
 * instead of letting it fail at its first use of something the gateway does not have.
 */
public interface ProviderPlugin {

    /**
     * The version of this SPI, as {@link java.lang.module.ModuleDescriptor.Version} orders versions:
     * the version the {@code io.aigw.spi} module declares. 1.1 added prices to the catalogue
     * ({@link #catalogue()}); 1.2 the APIs a provider serves ({@link #apis()}, {@link #homeFor()})
     * and a model's {@code kind} in the catalogue.
     */
    String SPI_VERSION = "1.2";

    /**
     * Returns what the gateway needs to route to this provider: its prefix, how the prefix is
     * treated, where the provider lives and which settings hold its key.
     */
    ProviderDescriptor descriptor();

    /**
     * Returns the model catalogue shipped in the plugin jar, if any.
     *
     * <p>The resource is UTF-8 JSON: an array of models, or, to say where its prices come from, an
     * object holding that array:
     * <pre>{@code
     * {
     *   "prices_as_of": "2026-11-26",
     *   "prices_source": "https://acme.example/pricing",
     *   "models": [
     *     {"id": "acme-large", "name": "Acme Large", "context_length": 200000, "owned_by": "acme",
     *      "pricing": {"input": 3.00, "cached_input": 0.30, "output": 15.00,
     *                  "tiers": [{"above_prompt_tokens": 200000, "input": 6.00, "output": 22.50}]}},
     *     {"id": "acme-small", "name": "Acme Small", "context_length": 32768, "owned_by": "acme"}
     *   ]
     * }
     * }</pre>
     * A model has the fields {@code id} (the provider's own model id, without the gateway prefix),
     * {@code name}, {@code context_length} (tokens, an integer), {@code owned_by} and, optionally,
     * {@code kind} ({@code "chat"}, the default, or {@code "embedding"}: a model that answers
     * {@link UpstreamApi#EMBEDDINGS} requests, whose {@code pricing} may leave out {@code output}; since
     * 1.2),
     * {@code max_output_tokens} (the most tokens one answer may hold, an integer; without it the
     * gateway takes the context length as the output cap when it reserves for a request that sets no
     * {@code max_completion_tokens}, and a runtime older than the member ignores it) and
     * {@code pricing}. {@code prices_as_of} (a day, {@code yyyy-mm-dd}) and {@code prices_source}
     * (a string, the provider's price page) are optional too; a catalogue without either may be the
     * bare array, as before SPI 1.1.
     *
     * <p>{@code pricing} is what the model costs, in US dollars per million tokens, as JSON numbers
     * (read exactly from their text): {@code input} and {@code output} are required;
     * {@code cached_input} (a prompt token read from the provider's cache; else the input rate),
     * {@code cache_write} (one written into it, where the provider charges for that; else the input
     * rate) and {@code reasoning} (a reasoning token, where priced apart; else the output rate) are
     * optional. {@code tiers} lists, in ascending order, the rates of requests with more than
     * {@code above_prompt_tokens} prompt tokens (strictly more, counting cached tokens), which then
     * apply to every token of the request, in the same form. A model without {@code pricing} has an
     * unknown cost, never a cost of zero, unless the upstream reports the cost in its answer
     * ({@code usage.cost}), which wins over any price. A price has no other members.
     *
     * <p>Resolve the resource from the plugin's own class, for example
     * {@code MyPlugin.class.getResource("models.json")}: a resource in a module's package is only
     * visible to code of that module.
     */
    default Optional<URL> catalogue() {
        return Optional.empty();
    }

    /**
     * Returns headers the provider wants on every request, such as attribution headers. They are
     * sent after the gateway's own headers. A plugin that names a header the gateway writes itself
     * ({@code Host}, {@code Content-Length}, {@code Transfer-Encoding}, {@code Connection},
     * {@code Keep-Alive}, {@code Upgrade}, {@code TE}, {@code Trailer}, any {@code Proxy-*} header,
     * {@code Authorization} or {@code x-api-key}) is refused.
     */
    default Map<String, String> extraHeaders() {
        return Map.of();
    }

    /**
     * Returns the top-level request fields the provider rejects; the gateway removes them from the
     * request body before forwarding it. Every other field is forwarded as the caller sent it.
     */
    default Set<String> unsupportedFields() {
        return Set.of();
    }

    /**
     * Returns the APIs the upstream serves natively, each with its path under the descriptor's
     * {@link ProviderDescriptor#baseUrl() base URL} (starting with {@code /}; usually the API's
     * {@link UpstreamApi#defaultPath()}). The gateway forwards a request on one of these APIs as the
     * caller sent it and refuses, with 400, one on an API the provider leaves out. Chat completions
     * only by default, as before SPI 1.2.
     *
     * @since 1.2
     */
    default Map<UpstreamApi, String> apis() {
        return Map.of(UpstreamApi.CHAT_COMPLETIONS, UpstreamApi.CHAT_COMPLETIONS.defaultPath());
    }

    /**
     * Returns the APIs for which this provider is the home of model ids that name no provider: a
     * request on such an API whose model has no {@code /} (Claude Code asks for
     * {@code claude-sonnet-4-5-20250929}) goes to this provider with the id unchanged, where it would
     * otherwise go to the catch-all. Each must be one of {@link #apis()}, and at most one installed
     * plugin may be the home of an API. None by default.
     *
     * @since 1.2
     */
    default Set<UpstreamApi> homeFor() {
        return Set.of();
    }
}
