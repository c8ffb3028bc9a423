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
 *
 * <p>Every text field (the header's names, key ids and names, providers, models, days) is quoted,
 * so that a spreadsheet splitting lines at another separator than the comma, as it does in locales
 * whose decimal mark is the comma (German, French: {@code ;}), still reads each as one text: a key
 * named {@code x;=cmd|' /C calc'!A0;} unquoted would put {@code =cmd|...} in a cell of its own,
 * where it is a formula. A text a spreadsheet would take for a formula (a key named
 * {@code =SUM(...)}, or one starting with a tab or carriage return) also starts with {@code '}, as
 * OWASP advises against CSV injection, and so does each part of a text after a separator or line
 * break within it. Numbers are not quoted; a text that is absent is an empty field.
 */
final class UsageCsv {
    /** What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection"). */
    private static final String FORMULA_STARTS = "=+-@\t\r";
    /** The separators spreadsheets split CSV at, in one locale or another, and line breaks. */
    private static final String FIELD_STARTS_AFTER = ",;\t\r\n";
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
        StringBuilder csv = new StringBuilder();
        List<String> header = UsageColumns.header(query.groupBy());
        for (int i = 0; i < header.size(); i++) {
            quoted(csv, header.get(i));
            csv.append(i + 1 < header.size() ? "," : "\r\n");
        }
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

    /** A text field and its comma: quoted, each formula start neutralised; empty for null. */
    private static void text(StringBuilder csv, String value) {
        if (value != null) {
            quoted(csv, neutralised(value));
        }
        csv.append(',');
    }

    /**
     * {@code value} with a {@code '} before each formula character that starts it or follows a
     * separator or line break. Quoting alone is not enough: a spreadsheet that splits at {@code ;}
     * honours a quote only at the start of a field, so a field after the first of a line starts
     * after the {@code ;} inside the text.
     */
    private static String neutralised(String value) {
        StringBuilder safe = new StringBuilder(value.length() + 2);
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((i == 0 || FIELD_STARTS_AFTER.indexOf(value.charAt(i - 1)) >= 0) && FORMULA_STARTS.indexOf(c) >= 0) {
                safe.append('\'');
            }
            safe.append(c);
        }
        return safe.toString();
    }

    /** {@code value} in double quotes, a quote inside it doubled (RFC 4180, section 2). */
    private static void quoted(StringBuilder csv, String value) {
        csv.append('"').append(value.replace("\"", "\"\"")).append('"');
    }
}
