package io.aigw.spi;

import java.net.URL;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * An upstream model provider that speaks the OpenAI Chat Completions wire format.
 *
 * <p>The gateway finds implementations with {@link java.util.ServiceLoader} at startup, calls each
 * method once, and does all the work itself: the HTTP call, streaming, retries and fallback. A plugin
 * only <em>declares</em> what is particular to its provider, so it starts no threads, opens no
 * connections and reads no settings of its own; configuration may override everything it declares.
 *
 * <p>Only {@link #descriptor()} must be implemented. The other methods are optional hooks whose
 * defaults declare "nothing special".
 */
public interface ProviderPlugin {

    /**
     * Returns what the gateway needs to route to this provider: its prefix, how the prefix is
     * treated, where the provider lives and which settings hold its key.
     */
    ProviderDescriptor descriptor();

    /**
     * Returns the model catalogue shipped in the plugin jar, if any.
     *
     * <p>The resource is a UTF-8 JSON array of objects with the fields {@code id} (the provider's
     * own model id, without the gateway prefix), {@code name}, {@code context_length} (tokens, an
     * integer) and {@code owned_by}. Resolve it from the plugin's own class, for example
     * {@code MyPlugin.class.getResource("models.json")}: a resource in a module's package is only
     * visible to code of that module.
     */
    default Optional<URL> catalogue() {
        return Optional.empty();
    }

    /**
     * Returns headers the provider wants on every request, such as attribution headers. They are
     * sent after the gateway's own headers and never replace {@code Authorization}.
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
}
