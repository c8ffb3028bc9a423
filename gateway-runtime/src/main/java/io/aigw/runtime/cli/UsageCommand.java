package io.aigw.runtime.cli;

import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.UsageColumns;
import io.aigw.runtime.store.UsageQuery;
import io.aigw.runtime.store.UsageQuery.Dimension;
import io.aigw.runtime.store.UsageRow;
import io.aigw.runtime.text.LogText;
import java.io.PrintStream;
import java.time.Clock;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code bin/gateway usage [--from <day>] [--to <day>] [--key <id>] [--by day|model|upstream_key|endpoint|key]}:
 * the figures of {@code GET /admin/v1/usage}, read from the same daily rollup of the configured store,
 * as a table on standard output with a line of totals. The days are UTC and both included; by
 * default this month to today, grouped by key. A cost that is unknown reads {@code unknown}, never 0.
 */
public final class UsageCommand {
    public static final int OK = 0;
    public static final int USAGE = 2;
    /** The database could not be reached or read. */
    public static final int STORE_FAILED = 3;
    static final String SYNOPSIS = "gateway usage [--from <day>] [--to <day>] [--key <id>]"
            + " [--by day|model|upstream_key|endpoint|key]";

    private final GatewayStore store;
    private final Clock clock;
    private final PrintStream out;
    private final PrintStream err;

    public UsageCommand(GatewayStore store, Clock clock, PrintStream out, PrintStream err) {
        this.store = store;
        this.clock = clock;
        this.out = out;
        this.err = err;
    }

    /** Runs {@code args} (without the leading {@code usage}) and returns the process exit code. */
    public int run(List<String> args) {
        UsageQuery query;
        try {
            query = query(args);
        } catch (Mistake e) {
            err.println("gateway usage: " + e.getMessage() + "; usage: " + SYNOPSIS);
            return USAGE;
        }
        print(query, store.usage(query));
        return OK;
    }

    private UsageQuery query(List<String> args) throws Mistake {
        Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.size(); i += 2) {
            String option = args.get(i);
            if (!List.of("--from", "--to", "--key", "--by").contains(option)) {
                throw new Mistake("unknown option '" + option + "'");
            }
            if (i + 1 >= args.size()) {
                throw new Mistake(option + " needs a value");
            }
            if (options.put(option, args.get(i + 1)) != null) {
                throw new Mistake(option + " is given twice");
            }
        }
        LocalDate to = options.containsKey("--to") ? day("--to", options.get("--to")) : LocalDate.now(clock);
        LocalDate from = options.containsKey("--from") ? day("--from", options.get("--from")) : to.withDayOfMonth(1);
        if (to.isBefore(from)) {
            throw new Mistake("--from (" + from + ") is after --to (" + to + ")");
        }
        Optional<String> key = Optional.ofNullable(options.get("--key")).map(String::strip);
        if (key.isPresent() && key.get().isEmpty()) {
            throw new Mistake("--key needs a key's id, as gateway keys list shows it");
        }
        return new UsageQuery(from, to, groupBy(options.getOrDefault("--by", "key")), key);
    }

    private static LocalDate day(String option, String text) throws Mistake {
        LocalDate day;
        try {
            day = UsageQuery.day(text);
        } catch (DateTimeException e) {
            throw new Mistake(option + " must be a day such as 2026-01-31, or an instant (ISO-8601 or unix seconds)"
                    + " standing for its day in UTC, not '" + text + "'");
        }
        if (!UsageQuery.isCounted(day)) {
            throw new Mistake(option + " must be between " + UsageQuery.EARLIEST + " and " + UsageQuery.LATEST);
        }
        return day;
    }

    private static Set<Dimension> groupBy(String text) throws Mistake {
        Set<Dimension> dimensions = EnumSet.noneOf(Dimension.class);
        for (String name : text.split(",", -1)) {
            Optional<Dimension> dimension = Dimension.named(name.strip());
            if (dimension.isEmpty()) {
                throw new Mistake("--by must be day, model, upstream_key, endpoint or key, or several of them"
                        + " separated by commas (key,day), not '" + text + "'");
            }
            dimensions.add(dimension.get());
        }
        return dimensions;
    }

    private void print(UsageQuery query, List<UsageRow> rows) {
        int grouping = UsageColumns.grouping(query.groupBy());
        List<List<String>> lines = new ArrayList<>();
        lines.add(UsageColumns.header(query.groupBy()));
        for (UsageRow row : rows) {
            lines.add(shown(UsageColumns.cells(query.groupBy(), row), grouping));
        }
        // Every report is grouped by one dimension at least: the totals go under the first.
        List<String> totals = new ArrayList<>();
        totals.add("total");
        for (int i = 1; i < grouping; i++) {
            totals.add("");
        }
        totals.addAll(shown(UsageColumns.sums(rows.stream().reduce(UsageRow.NONE, UsageRow::plus)), 0));
        lines.add(totals);
        err.println("Usage from " + query.from() + " to " + query.to() + " (UTC days, both included)"
                + query.keyId().map(id -> " of key " + id).orElse("") + ":");
        printAligned(lines, grouping);
    }

    /** The cells as the table shows them: a text the row has not as '-', a cost that is unknown as 'unknown'. */
    private static List<String> shown(List<String> cells, int grouping) {
        List<String> shown = new ArrayList<>(cells.size());
        for (int i = 0; i < cells.size(); i++) {
            String cell = cells.get(i);
            // A model id or key name stored before such characters were refused must not reorder the table.
            shown.add(cell != null ? LogText.escaped(cell) : i < grouping ? "-" : "unknown");
        }
        return shown;
    }

    /** Prints the lines as columns two spaces apart: texts aligned left, figures right. */
    private void printAligned(List<List<String>> lines, int textColumns) {
        int columns = lines.getFirst().size();
        int[] widths = new int[columns];
        for (List<String> line : lines) {
            for (int i = 0; i < columns; i++) {
                widths[i] = Math.max(widths[i], line.get(i).length());
            }
        }
        for (List<String> line : lines) {
            StringBuilder text = new StringBuilder();
            for (int i = 0; i < columns; i++) {
                if (i > 0) {
                    text.append("  ");
                }
                String value = line.get(i);
                String padding = " ".repeat(widths[i] - value.length());
                text.append(i < textColumns ? value + padding : padding + value);
            }
            out.println(text.toString().stripTrailing());
        }
    }

    /** Arguments that cannot be used; the message says which and why. */
    private static final class Mistake extends Exception {
        Mistake(String message) {
            super(message);
        }
    }
}
