package io.aigw.runtime.routing;

import io.aigw.runtime.plugin.Provider;

/**
 * Where one request goes.
 *
 * @param upstreamModel the model id the upstream receives, prefix stripped where the provider wants it
 */
public record Route(Provider provider, String upstreamModel) implements Destination {
}
