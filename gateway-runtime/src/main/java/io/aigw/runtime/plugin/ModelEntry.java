package io.aigw.runtime.plugin;

import io.aigw.runtime.pricing.ModelPrice;
import java.util.Optional;

/**
 * One model of a provider's catalogue.
 *
 * @param id            the id the upstream knows ({@code gpt-5}), without the gateway prefix
 * @param contextLength the context window in tokens
 * @param price         what it costs, from its catalogue or configuration; empty where neither
 *                      gives a price, and its cost is unknown unless the upstream reports one
 */
public record ModelEntry(String id, String name, long contextLength, String ownedBy, Optional<ModelPrice> price) {

    /** An entry without a price. */
    public ModelEntry(String id, String name, long contextLength, String ownedBy) {
        this(id, name, contextLength, ownedBy, Optional.empty());
    }
}
