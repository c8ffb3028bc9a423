package io.aigw.runtime.routing;

import io.aigw.runtime.plugin.Provider;
import java.util.List;
import java.util.function.Predicate;

/**
 * {@code gateway/auto}: every provider in priority order, each asked for its default model. Which
 * of them may be tried is known only when a request comes (a key an upstream just rejected is
 * skipped for a while), so the chain yields its routes per request.
 *
 * @param byPriority every installed provider, lowest priority number first
 */
public record AutoChain(List<Provider> byPriority) implements Destination {

    public AutoChain {
        byPriority = List.copyOf(byPriority);
    }

    /** The routes to try, in order: each provider {@code usable} accepts, with its default model. */
    public List<Route> routes(Predicate<Provider> usable) {
        return byPriority.stream()
                .filter(usable)
                .map(provider -> new Route(provider, provider.defaultModel()))
                .toList();
    }
}
