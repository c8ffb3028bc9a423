package io.aigw.runtime.routing;

import java.util.List;

/**
 * An alias of several models ({@code gateway.aliases}): its routes in order, the next tried when
 * one fails before anything reached the caller, as {@code gateway/auto} moves on.
 *
 * @param alias  the alias a caller asked for
 * @param routes its models' routes, in the order configured
 */
public record Fallbacks(String alias, List<Route> routes) implements Destination {

    public Fallbacks {
        routes = List.copyOf(routes);
    }
}
