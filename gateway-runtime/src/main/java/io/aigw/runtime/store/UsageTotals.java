package io.aigw.runtime.store;

/**
 * Usage summed over a group of records (one key, or one model).
 *
 * @param group the key id or the requested model
 */
public record UsageTotals(String group, long requests, long promptTokens, long completionTokens, long totalTokens) {
}
