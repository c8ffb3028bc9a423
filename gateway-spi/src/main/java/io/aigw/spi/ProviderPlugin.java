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
     * the version the {@code io.aigw.spi} module declares.
     */
    String SPI_VERSION = "1.0";

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
