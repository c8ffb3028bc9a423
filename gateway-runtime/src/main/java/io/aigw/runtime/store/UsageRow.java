package io.aigw.runtime.store;

import java.time.LocalDate;
import java.util.Optional;

/**
 * One group of a usage report. The dimensions the report is not grouped by are null, as are a key's
 * name when the key is not in the store (the configured master key) and the provider of requests no
 * provider was tried for (refused by a key's policy or limits, or not routable): their model is the
 * one the caller asked for ({@code openai/gpt-5}), where others name the provider's model
 * ({@code gpt-5}).
 *
 * @param upstreamKey  the name of the provider's upstream key that was called; null for requests
 *                     no provider was called for, and for those written before the rollup kept it
 * @param endpoint     the endpoint asked on ({@code chat_completions}, {@code embeddings}...)
 * @param requests     requests (failed attempts that were billed are not requests)
 * @param costNanos    the sum of the known costs, in nano-dollars
 * @param costed       how many records have a known cost: when none has, the cost is unknown
 * @param unknownCost  how many records have an unknown cost, left out of {@code costNanos}
 * @param estimated    how many records' cost was priced from estimated token counts
 */
public record UsageRow(String keyId, String keyName, String provider, String model, String upstreamKey,
                       String endpoint, LocalDate day, long requests,
                       long promptTokens, long completionTokens, long totalTokens, long costNanos, long costed,
                       long unknownCost, long estimated) {

    /** The summed cost, empty when no record of the group has a known one. */
    public Optional<Long> cost() {
        return costed > 0 ? Optional.of(costNanos) : Optional.empty();
    }

    /** This row and {@code other} summed, under this row's dimensions. */
    public UsageRow plus(UsageRow other) {
        return new UsageRow(keyId, keyName, provider, model, upstreamKey, endpoint, day, requests + other.requests,
                promptTokens + other.promptTokens, completionTokens + other.completionTokens,
                totalTokens + other.totalTokens, Math.addExact(costNanos, other.costNanos), costed + other.costed,
                unknownCost + other.unknownCost, estimated + other.estimated);
    }

    /** No record: what the totals of an empty report are. */
    public static final UsageRow NONE = new UsageRow(null, null, null, null, null, null, null, 0, 0, 0, 0, 0, 0, 0,
            0);
}
