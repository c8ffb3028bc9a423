package io.aigw.runtime.store;

import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.store.UsageQuery.Dimension;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * A usage report laid out in columns, as the CSV and {@code bin/gateway usage}'s table lay it: the
 * grouped dimensions' columns first (key id and name, provider, model, upstream key, endpoint, day),
 * then the sums.
 */
public final class UsageColumns {
    private static final List<String> SUMS = List.of("requests", "prompt_tokens", "completion_tokens",
            "total_tokens", "cost_usd", "unknown_cost", "estimated_cost");

    private UsageColumns() {
    }

    /** The columns' names. */
    public static List<String> header(Set<Dimension> groupBy) {
        List<String> header = new ArrayList<>();
        if (groupBy.contains(Dimension.KEY)) {
            header.addAll(List.of("key_id", "key_name"));
        }
        if (groupBy.contains(Dimension.MODEL) || groupBy.contains(Dimension.UPSTREAM_KEY)) {
            header.add("provider");
        }
        if (groupBy.contains(Dimension.MODEL)) {
            header.add("model");
        }
        if (groupBy.contains(Dimension.UPSTREAM_KEY)) {
            header.add("upstream_key");
        }
        if (groupBy.contains(Dimension.ENDPOINT)) {
            header.add("endpoint");
        }
        if (groupBy.contains(Dimension.DAY)) {
            header.add("day");
        }
        header.addAll(SUMS);
        return header;
    }

    /** How many of the columns, from the first, are the grouped dimensions' texts. */
    public static int grouping(Set<Dimension> groupBy) {
        return header(groupBy).size() - SUMS.size();
    }

    /** The row's cells in the columns' order: null for a text it has not and for a cost that is unknown. */
    public static List<String> cells(Set<Dimension> groupBy, UsageRow row) {
        List<String> cells = new ArrayList<>();
        if (groupBy.contains(Dimension.KEY)) {
            cells.add(row.keyId());
            cells.add(row.keyName());
        }
        if (groupBy.contains(Dimension.MODEL) || groupBy.contains(Dimension.UPSTREAM_KEY)) {
            cells.add(row.provider());
        }
        if (groupBy.contains(Dimension.MODEL)) {
            cells.add(row.model());
        }
        if (groupBy.contains(Dimension.UPSTREAM_KEY)) {
            cells.add(row.upstreamKey());
        }
        if (groupBy.contains(Dimension.ENDPOINT)) {
            cells.add(row.endpoint());
        }
        if (groupBy.contains(Dimension.DAY)) {
            cells.add(row.day().toString());
        }
        cells.addAll(sums(row));
        return cells;
    }

    /** The sums' cells alone, for a line of totals. */
    public static List<String> sums(UsageRow row) {
        return Arrays.asList(Long.toString(row.requests()), Long.toString(row.promptTokens()),
                Long.toString(row.completionTokens()), Long.toString(row.totalTokens()),
                row.cost().map(nanos -> new Usd(nanos).toString()).orElse(null),
                Long.toString(row.unknownCost()), Long.toString(row.estimated()));
    }
}
