package io.aigw.runtime.admin;

import io.aigw.runtime.store.UsageColumns;
import io.aigw.runtime.store.UsageQuery;
import io.aigw.runtime.store.UsageRow;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A usage report as CSV (RFC 4180) for a spreadsheet: a header line, then one line per group, the
 * columns of the grouped dimensions first. A cost that is unknown is an empty field, never 0.
 * A text a spreadsheet would take for a formula (a key named {@code =SUM(...)}) starts with
 * {@code '}, as OWASP advises against CSV injection.
 */
final class UsageCsv {
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
        int grouping = UsageColumns.grouping(query.groupBy());
        StringBuilder csv = new StringBuilder(String.join(",", UsageColumns.header(query.groupBy()))).append("\r\n");
        for (UsageRow row : rows) {
            List<String> cells = UsageColumns.cells(query.groupBy(), row);
            for (int i = 0; i < cells.size(); i++) {
                if (i < grouping) {
                    text(csv, cells.get(i));
                } else {
                    csv.append(cells.get(i) == null ? "" : cells.get(i)).append(i + 1 < cells.size() ? "," : "\r\n");
                }
            }
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
