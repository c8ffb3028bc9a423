package io.aigw.runtime.plugin;

import io.aigw.spi.UpstreamApi;
import java.net.URI;
import java.util.Map;
import java.util.OptionalLong;

/**
 * One upstream key of a provider's pool. Its {@code toString} never shows the key, so a key that
 * ends up in a log line or an exception message by mistake shows as {@code ****}; its name is what
 * records, logs and metrics show.
 *
 * @param name   the key's name: {@code providers.<name>.keys[].name}, or {@code default} for
 *               {@code providers.<name>.api-key}
 * @param value  the key itself
 * @param weight its share of the requests among the provider's healthy keys
 * @param apis   the URL of each API the provider serves, at the key's base URL
 * @param rpm    requests a minute its upstream allows it, when configured
 * @param tpm    tokens a minute its upstream allows it, when configured
 */
public record UpstreamKey(String name, String value, int weight, URI baseUrl, Map<UpstreamApi, URI> apis,
                          OptionalLong rpm, OptionalLong tpm) {

    /** Returns the {@code Authorization} header value for the upstream. */
    public String bearer() {
        return "Bearer " + value;
    }

    @Override
    public String toString() {
        return "UpstreamKey[" + name + ", ****]";
    }
}
