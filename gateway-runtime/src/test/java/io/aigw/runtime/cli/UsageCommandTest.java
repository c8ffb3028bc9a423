package io.aigw.runtime.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.pricing.Cost;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.store.JdbcStore;
import io.aigw.runtime.store.KeyPolicy;
import io.aigw.runtime.store.UsageRecord;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.JsonObject;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code gateway usage} against a store holding usage records written as a gateway writes them: the
 * table on standard output sums them as the report does, a line of totals last; arguments that
 * cannot be used give one line on standard error and exit 2.
 */
public final class UsageCommandTest {
    private static final String NL = System.lineSeparator();
    private static final PriceBook PRICES = PriceBook.of(Map.of());
    /** 2026-11-25, noon UTC: the day the records are written on; "today" is 2026-11-26. */
    private static final Instant NOON = Instant.parse("2026-11-25T12:00:00Z");
    private static final Clock TODAY = Clock.fixed(Instant.parse("2026-11-26T08:00:00Z"), ZoneOffset.UTC);

    @TempDir
    Path folder;

    private JdbcStore store;
    private String billing;
    private String search;

    @BeforeEach
    void recordUsage() {
        store = JdbcStore.open("jdbc:sqlite:" + folder.resolve("gateway.db"), Optional.empty(), Optional.empty(), 2);
        billing = store.createKey("billing", "b".repeat(64), false, KeyPolicy.NONE).id();
        search = store.createKey("search", "c".repeat(64), false, KeyPolicy.NONE).id();
        store.recordUsage(List.of(
                record(NOON, billing, "openai", "gpt-5", 1_000, 200, new Cost.Priced(new Usd(3_250_000), PRICES.version())),
                record(NOON.plusSeconds(1), billing, "openai", "gpt-5", 10, 2, new Cost.Estimated(new Usd(32_500),
                        PRICES.version())),
                record(NOON.plusSeconds(2), search, "anthropic", "claude-sonnet-4-5", 100, 10,
                        new Cost.Priced(new Usd(450_000), PRICES.version())),
                record(NOON.plusSeconds(3), search, "xai", "grok-5", 7, 3, new Cost.Unknown(Cost.Reason.NO_PRICE)),
                // The day before: outside a report of the 25th alone.
                record(NOON.minusSeconds(86_400), billing, "openai", "gpt-5", 1, 1, new Cost.Priced(new Usd(11),
                        PRICES.version()))));
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void byKeyEachKeysNameSumsAndSpendMostCostFirstThenTheTotals() {
        Output report = run("--from", "2026-11-25", "--to", "2026-11-25");

        assertEquals(UsageCommand.OK, report.code(), report.err());
        assertEquals(String.join(NL,
                "key_id                key_name  requests  prompt_tokens  completion_tokens  total_tokens"
                        + "     cost_usd  unknown_cost  estimated_cost",
                billing + "  billing          2           1010                202          1212  0.003282500"
                        + "             0               1",
                search + "  search           2            107                 13           120  0.000450000"
                        + "             1               0",
                "total                                  4           1117                215          1332  0.003732500"
                        + "             1               1") + NL, report.out());
        assertEquals("Usage from 2026-11-25 to 2026-11-25 (UTC days, both included):" + NL, report.err());
    }

    @Test
    void byModelAndDayOverTheDefaultRangeOfThisMonthToToday() {
        Output report = run("--by", "model,day");

        assertEquals(UsageCommand.OK, report.code(), report.err());
        assertEquals(String.join(NL,
                "provider   model              day         requests  prompt_tokens  completion_tokens  total_tokens"
                        + "     cost_usd  unknown_cost  estimated_cost",
                "openai     gpt-5              2026-11-24         1              1                  1             2"
                        + "  0.000000011             0               0",
                "openai     gpt-5              2026-11-25         2           1010                202          1212"
                        + "  0.003282500             0               1",
                "anthropic  claude-sonnet-4-5  2026-11-25         1            100                 10           110"
                        + "  0.000450000             0               0",
                "xai        grok-5             2026-11-25         1              7                  3            10"
                        + "      unknown             1               0",
                "total                                            5           1118                216          1334"
                        + "  0.003732511             1               1") + NL, report.out());
        assertEquals("Usage from 2026-11-01 to 2026-11-26 (UTC days, both included):" + NL, report.err());
    }

    @Test
    void oneKeysSpendByModel() {
        Output report = run("--key", search, "--by", "model", "--from", "2026-11-25T00:00:00Z", "--to", "1795651200");

        assertEquals(UsageCommand.OK, report.code(), report.err());
        assertEquals(String.join(NL,
                "provider   model              requests  prompt_tokens  completion_tokens  total_tokens     cost_usd"
                        + "  unknown_cost  estimated_cost",
                "anthropic  claude-sonnet-4-5         1            100                 10           110  0.000450000"
                        + "             0               0",
                "xai        grok-5                    1              7                  3            10      unknown"
                        + "             1               0",
                "total                                2            107                 13           120  0.000450000"
                        + "             1               0") + NL, report.out());
        assertEquals("Usage from 2026-11-25 to 2026-11-26 (UTC days, both included) of key " + search + ":" + NL,
                report.err());
    }

    @Test
    void aRangeWithoutRecordsHasOnlyTotalsWhoseCostIsUnknown() {
        Output report = run("--from", "2026-01-01", "--to", "2026-01-31", "--by", "day");

        assertEquals(UsageCommand.OK, report.code(), report.err());
        assertEquals(String.join(NL,
                "day    requests  prompt_tokens  completion_tokens  total_tokens  cost_usd  unknown_cost"
                        + "  estimated_cost",
                "total         0              0                  0             0   unknown             0"
                        + "               0") + NL, report.out());
    }

    @Test
    void theTableHoldsTheFiguresTheAdminApiReportsForTheSameQuery() {
        String query = "from=2026-11-24&to=2026-11-25&group_by=key,model,day";
        JsonObject report;
        try (TestGateway gateway = TestGateway.start(Map.of("gateway.database.url", "jdbc:sqlite:"
                + folder.resolve("gateway.db"), "gateway.access-log", "off"), Map.of())) {
            HttpResponse<String> answer = gateway.send(gateway.request("/admin/v1/usage?" + query).build());
            assertEquals(200, answer.statusCode(), answer.body());
            report = KeysApi.json(answer.body());
        }
        List<List<String>> fromApi = new ArrayList<>();
        for (JsonObject row : report.getJsonArray("data").getValuesAs(JsonObject.class)) {
            fromApi.add(List.of(row.getString("key_id"), row.getString("key_name"), row.getString("provider"),
                    row.getString("model"), row.getString("day"), number(row, "requests"), number(row, "prompt_tokens"),
                    number(row, "completion_tokens"), number(row, "total_tokens"),
                    row.isNull("cost_usd") ? "unknown" : row.getString("cost_usd"), number(row, "unknown_cost"),
                    number(row, "estimated_cost")));
        }

        Output table = run("--from", "2026-11-24", "--to", "2026-11-25", "--by", "day,key,model");

        assertEquals(UsageCommand.OK, table.code(), table.err());
        List<List<String>> lines = table.out().lines().map(line -> List.of(line.split(" +"))).toList();
        assertEquals(4, fromApi.size(), report.toString());
        assertEquals(fromApi, lines.subList(1, lines.size() - 1), "the rows, in the report's order");
    }

    private static String number(JsonObject row, String name) {
        return row.getJsonNumber(name).toString();
    }

    static Stream<List<String>> wrongUsage() {
        return Stream.of(
                List.of("--from", "yesterday", "gateway usage: --from must be a day such as 2026-01-31, or an instant"
                        + " (ISO-8601 or unix seconds) standing for its day in UTC, not 'yesterday'"),
                List.of("--from", "2026-11-02", "--to", "2026-11-01",
                        "gateway usage: --from (2026-11-02) is after --to (2026-11-01)"),
                List.of("--to", "99999999999999", "gateway usage: --to must be between 1970-01-01 and 9999-12-31"),
                List.of("--by", "week", "gateway usage: --by must be day, model, upstream_key, endpoint or key, or several"
                        + " of them separated by commas (key,day), not 'week'"),
                List.of("--by", "", "gateway usage: --by must be day, model, upstream_key, endpoint or key, or several"
                        + " of them separated by commas (key,day), not ''"),
                List.of("--key", " ", "gateway usage: --key needs a key's id, as gateway keys list shows it"),
                List.of("--from", "gateway usage: --from needs a value"),
                List.of("--by", "key", "--by", "day", "gateway usage: --by is given twice"),
                List.of("--group-by", "key", "gateway usage: unknown option '--group-by'"),
                List.of("list", "gateway usage: unknown option 'list'"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("wrongUsage")
    void argumentsThatCannotBeUsedExit2WithOneLineSayingWhyAndNothingOnStandardOutput(List<String> argsAndMessage) {
        Output output = run(argsAndMessage.subList(0, argsAndMessage.size() - 1).toArray(String[]::new));

        assertEquals(UsageCommand.USAGE, output.code());
        assertEquals("", output.out());
        assertEquals(argsAndMessage.getLast() + "; usage: " + UsageCommand.SYNOPSIS + NL, output.err());
        assertTrue(output.err().lines().count() == 1, output.err());
    }

    @Test
    void theCommandLineReadsUsageAsACommandOfItsOwn() {
        assertEquals(new Command.UsageReport(List.of("--by", "model")), Command.of("usage", "--by", "model"));
    }

    private static UsageRecord record(Instant time, String keyId, String provider, String model, long prompt,
                                      long completion, Cost cost) {
        return new UsageRecord(time, keyId, provider + "/" + model, provider, model, 200, prompt, completion,
                prompt + completion, 1_000, 500, 0, cost, PRICES, false);
    }

    private record Output(int code, String out, String err) {
    }

    private Output run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new UsageCommand(store, TODAY, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).run(List.of(args));
        return new Output(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
