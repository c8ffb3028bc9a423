package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ModelKind;
import io.aigw.runtime.pricing.ModelPrice;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One model of a provider's catalogue.
 *
 * @param id            the id the upstream knows ({@code gpt-5}), without the gateway prefix
 * @param contextLength the context window in tokens
 * @param price         what it costs, from its catalogue or configuration; empty where neither
 *                      gives a price, and its cost is unknown unless the upstream reports one
 * @param maxOutputTokens the most tokens one answer may hold, where its catalogue says; what a
 *                      request without {@code max_completion_tokens} is reserved for
 * @param kind          what it does: chat, or embedding
 */
public record ModelEntry(String id, String name, long contextLength, String ownedBy, Optional<ModelPrice> price,
                         OptionalLong maxOutputTokens, ModelKind kind) {

    /** A chat model. */
    public ModelEntry(String id, String name, long contextLength, String ownedBy, Optional<ModelPrice> price,
                      OptionalLong maxOutputTokens) {
        this(id, name, contextLength, ownedBy, price, maxOutputTokens, ModelKind.CHAT);
    }

    /** An entry whose catalogue gives no output cap. */
    public ModelEntry(String id, String name, long contextLength, String ownedBy, Optional<ModelPrice> price) {
        this(id, name, contextLength, ownedBy, price, OptionalLong.empty());
    }

    /** What one answer may hold at most: its output cap, else its whole context window. */
    public long outputCap() {
        return maxOutputTokens.orElse(contextLength);
    }

    /** An entry without a price. */
    public ModelEntry(String id, String name, long contextLength, String ownedBy) {
        this(id, name, contextLength, ownedBy, Optional.empty());
    }
}
