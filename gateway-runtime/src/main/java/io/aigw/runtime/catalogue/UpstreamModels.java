package io.aigw.runtime.catalogue;

import java.time.Instant;
import java.util.Set;

/**
 * A provider's model list as its upstream last gave it.
 *
 * @param ids     the model ids, as the upstream knows them
 * @param fetched when the list was read
 */
public record UpstreamModels(Set<String> ids, Instant fetched) {

    public UpstreamModels {
        ids = Set.copyOf(ids);
    }
}
