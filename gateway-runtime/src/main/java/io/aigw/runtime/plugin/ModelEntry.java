package io.aigw.runtime.plugin;

/**
 * One model of a provider's catalogue.
 *
 * @param id            the id the upstream knows ({@code gpt-5}), without the gateway prefix
 * @param contextLength the context window in tokens
 */
public record ModelEntry(String id, String name, long contextLength, String ownedBy) {
}
