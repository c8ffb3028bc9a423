package io.aigw.runtime.routing;

import java.util.ArrayList;
import java.util.List;
import java.util.random.RandomGenerator;

/**
 * An alias of several models ({@code gateway.aliases}): its routes, the next tried when one fails
 * before anything reached the caller, as {@code gateway/auto} moves on. Where some have a weight,
 * the first is drawn by weight among them for each request, the others following in order.
 *
 * @param alias   the alias a caller asked for
 * @param routes  its models' routes, in the order configured
 * @param weights each route's weight, 0 for one tried only after another failed
 */
public record Fallbacks(String alias, List<Route> routes, List<Integer> weights) implements Destination {

    public Fallbacks {
        routes = List.copyOf(routes);
        weights = List.copyOf(weights);
    }

    /** The routes in the order one request tries them. */
    public List<Route> order(RandomGenerator random) {
        int total = weights.stream().mapToInt(Integer::intValue).sum();
        if (total == 0) {
            return routes;
        }
        int point = random.nextInt(total);
        int first = 0;
        while (point >= weights.get(first)) {
            point -= weights.get(first++);
        }
        List<Route> ordered = new ArrayList<>(routes.size());
        ordered.add(routes.get(first));
        for (int i = 0; i < routes.size(); i++) {
            if (i != first) {
                ordered.add(routes.get(i));
            }
        }
        return ordered;
    }
}
