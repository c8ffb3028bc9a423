package io.aigw.runtime.store;

import io.aigw.runtime.store.UsageQuery.Dimension;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;

/**
 * Sums the daily rollup ({@code usage_daily}) for a {@link UsageQuery}: the report reads one row per
 * key, model, upstream key, endpoint and day, never the usage records themselves. Groups come most
 * cost first (then most tokens), or day by day when grouped by day.
 */
final class UsageReports {
    private static final String SUMS = "SUM(requests) AS requests, SUM(prompt_tokens) AS prompt_tokens,"
            + " SUM(completion_tokens) AS completion_tokens, SUM(total_tokens) AS total_tokens,"
            + " SUM(cost_nanos) AS cost_nanos, SUM(costed) AS costed, SUM(unknown_cost) AS unknown_cost,"
            + " SUM(estimated_cost) AS estimated_cost";

    private UsageReports() {
    }

    static List<UsageRow> run(Connection connection, UsageQuery query) throws SQLException {
        boolean byKey = query.groupBy().contains(Dimension.KEY);
        boolean byModel = query.groupBy().contains(Dimension.MODEL);
        boolean byDay = query.groupBy().contains(Dimension.DAY);
        boolean byEndpoint = query.groupBy().contains(Dimension.ENDPOINT);
        boolean byUpstreamKey = query.groupBy().contains(Dimension.UPSTREAM_KEY);
        // Upstream keys are named per provider (each has its "default"): grouped by one, by its provider too.
        boolean byProvider = byModel || byUpstreamKey;
        List<String> columns = new ArrayList<>();
        if (byKey) {
            columns.add("key_id");
        }
        if (byProvider) {
            columns.add("provider");
        }
        if (byModel) {
            columns.add("model");
        }
        if (byUpstreamKey) {
            columns.add("upstream_key");
        }
        if (byEndpoint) {
            columns.add("endpoint");
        }
        if (byDay) {
            columns.add("day");
        }
        String grouped = String.join(", ", columns);
        String sums = "SELECT " + (columns.isEmpty() ? "" : grouped + ", ") + SUMS + " FROM usage_daily"
                + " WHERE day >= ? AND day <= ?" + (query.keyId().isPresent() ? " AND key_id = ?" : "")
                + (columns.isEmpty() ? "" : " GROUP BY " + grouped);
        String sql = "SELECT g.*" + (byKey ? ", k.name AS key_name" : "") + " FROM (" + sums + ") g"
                + (byKey ? " LEFT JOIN workspace_keys k ON k.id = g.key_id" : "")
                + " ORDER BY " + (byDay ? "g.day, " : "") + "g.cost_nanos DESC, g.total_tokens DESC"
                + (byKey ? ", g.key_id" : "") + (byProvider ? ", g.provider" : "") + (byModel ? ", g.model" : "")
                + (byUpstreamKey ? ", g.upstream_key" : "") + (byEndpoint ? ", g.endpoint" : "");
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setLong(1, query.from().toEpochDay());
            statement.setLong(2, query.to().toEpochDay());
            if (query.keyId().isPresent()) {
                statement.setString(3, query.keyId().get());
            }
            List<UsageRow> rows = new ArrayList<>();
            try (ResultSet result = statement.executeQuery()) {
                while (result.next()) {
                    if (result.getLong("requests") == 0 && result.wasNull()) {
                        continue; // the one row of an ungrouped sum over nothing
                    }
                    rows.add(new UsageRow(byKey ? result.getString("key_id") : null,
                            byKey ? result.getString("key_name") : null,
                            byProvider ? emptyAsNull(result.getString("provider")) : null,
                            byModel ? emptyAsNull(result.getString("model")) : null,
                            byUpstreamKey ? emptyAsNull(result.getString("upstream_key")) : null,
                            byEndpoint ? result.getString("endpoint") : null,
                            byDay ? LocalDate.ofEpochDay(result.getLong("day")) : null,
                            result.getLong("requests"), result.getLong("prompt_tokens"),
                            result.getLong("completion_tokens"), result.getLong("total_tokens"),
                            result.getLong("cost_nanos"), result.getLong("costed"), result.getLong("unknown_cost"),
                            result.getLong("estimated_cost")));
                }
            }
            return rows;
        }
    }

    /**
     * The rollup keeps a request no provider was tried for under provider '' (older ones under model ''
     * too), and under upstream key '', as it does calls from before it kept the key.
     */
    private static String emptyAsNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }
}
