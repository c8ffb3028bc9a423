package io.aigw.runtime.admin;

import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.store.UsageQuery;
import io.aigw.runtime.store.UsageQuery.Dimension;
import io.aigw.runtime.store.UsageRow;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A usage report as CSV (RFC 4180) for a spreadsheet: a header line, then one line per group, the
 * columns of the grouped dimensions first. A cost that is unknown is an empty field, never 0.
 * A text a spreadsheet would take for a formula (a key named {@code =SUM(...)}) starts with
 * {@code '}, as OWASP advises against CSV injection.
 */
final class UsageCsv {
    private static final String SUMS = "requests,prompt_tokens,completion_tokens,total_tokens,cost_usd,unknown_cost,"
            + "estimated_cost";

    private UsageCsv() {
    }

    static void send(ServerResponse response, UsageQuery query, List<UsageRow> rows) {
        response.status(Status.OK_200);
        response.header(HeaderNames.CONTENT_TYPE, "text/csv; charset=utf-8");
        response.header(HeaderNames.CONTENT_DISPOSITION, "attachment; filename=\"usage-" + query.from() + "-"
                + query.to() + ".csv\"");
        response.send(write(query, rows).getBytes(StandardCharsets.UTF_8));
    }

    static String write(UsageQuery query, List<UsageRow> rows) {
        boolean byKey = query.groupBy().contains(Dimension.KEY);
        boolean byModel = query.groupBy().contains(Dimension.MODEL);
        boolean byDay = query.groupBy().contains(Dimension.DAY);
        List<String> header = new ArrayList<>();
        if (byKey) {
            header.add("key_id,key_name");
        }
        if (byModel) {
            header.add("provider,model");
        }
        if (byDay) {
            header.add("day");
        }
        header.add(SUMS);
        StringBuilder csv = new StringBuilder(String.join(",", header)).append("\r\n");
        for (UsageRow row : rows) {
            if (byKey) {
                text(csv, row.keyId());
                text(csv, row.keyName());
            }
            if (byModel) {
                text(csv, row.provider());
                text(csv, row.model());
            }
            if (byDay) {
                csv.append(row.day()).append(',');
            }
            csv.append(row.requests()).append(',').append(row.promptTokens()).append(',')
                    .append(row.completionTokens()).append(',').append(row.totalTokens()).append(',')
                    .append(row.cost().map(nanos -> new Usd(nanos).toString()).orElse("")).append(',')
                    .append(row.unknownCost()).append(',').append(row.estimated()).append("\r\n");
        }
        return csv.toString();
    }

    /** A text field and its comma: quoted when it holds a comma, a quote or a line break; empty for null. */
    private static void text(StringBuilder csv, String value) {
        if (value != null) {
            String safe = !value.isEmpty() && "=+-@\t\r".indexOf(value.charAt(0)) >= 0 ? "'" + value : value;
            if (safe.contains(",") || safe.contains("\"") || safe.contains("\n") || safe.contains("\r")) {
                csv.append('"').append(safe.replace("\"", "\"\"")).append('"');
            } else {
                csv.append(safe);
            }
        }
        csv.append(',');
    }
}
