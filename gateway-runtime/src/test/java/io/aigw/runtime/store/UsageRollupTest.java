package io.aigw.runtime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aigw.runtime.pricing.Cost;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.store.UsageQuery.Dimension;
import io.aigw.runtime.testing.LocalPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Usage records written through {@link JdbcStore} add into the daily rollup in the same
 * transaction, a batch adding to the rows an earlier one made; the report sums the rollup, not the
 * records. On SQLite and on PostgreSQL (skipped on a laptop without it, failed in CI).
 */
public final class UsageRollupTest {
    private static final PriceBook PRICES = PriceBook.of(Map.of());
    /** 2026-11-25 (day 20782 since 1970) at 23:59:59 UTC: its next second is on the next day. */
    private static final Instant LAST_SECOND = Instant.parse("2026-11-25T23:59:59Z");

    @TempDir
    Path folder;

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void eachBatchAddsIntoItsDaysRowsAndTheReportReadsThemWithoutTheRecords(String kind) throws Exception {
        try (Database database = Database.open(kind, folder)) {
            JdbcStore store = database.store();
            String billing = store.createKey("billing", "b".repeat(64), false, KeyPolicy.NONE).id();
            store.recordUsage(List.of(
                    record(LAST_SECOND, billing, "openai", "gpt-5", 10, 5, new Cost.Priced(new Usd(70_000),
                            PRICES.version()), false),
                    record(LAST_SECOND, billing, "openai", "gpt-5", 30, 0, new Cost.Priced(new Usd(60_000),
                            PRICES.version()), true),
                    record(LAST_SECOND, "master", null, null, 0, 0, new Cost.NotBilled(), false)));
            store.recordUsage(List.of(
                    record(LAST_SECOND, billing, "openai", "gpt-5", 4, 1, new Cost.Estimated(new Usd(16_000),
                            PRICES.version()), false),
                    record(LAST_SECOND, billing, "xai", "grok-5", 7, 3, new Cost.Unknown(Cost.Reason.NO_PRICE), false),
                    record(LAST_SECOND.plusSeconds(1), billing, "openai", "gpt-5", 2, 2,
                            new Cost.Reported(new Usd(5)), false)));

            // day key provider model: requests prompt completion total cost costed unknown estimated
            List<String> rollup = List.of(
                    "20782 " + billing + " openai gpt-5: 2 44 6 50 146000 3 0 1",
                    "20782 " + billing + " xai grok-5: 1 7 3 10 0 0 1 0",
                    "20782 master  xai/grok-4: 1 0 0 0 0 1 0 0",
                    "20783 " + billing + " openai gpt-5: 1 2 2 4 5 1 0 0");
            assertEquals(rollup, database.rollup());

            database.execute("DELETE FROM usage_records");
            UsageQuery byKeyModelAndDay = new UsageQuery(LocalDate.of(2026, 11, 25), LocalDate.of(2026, 11, 26),
                    Set.of(Dimension.KEY, Dimension.MODEL, Dimension.DAY), Optional.empty());
            assertEquals(List.of(
                    new UsageRow(billing, "billing", "openai", "gpt-5", null, null, LocalDate.of(2026, 11, 25), 2, 44,
                            6, 50, 146_000, 3, 0, 1),
                    new UsageRow(billing, "billing", "xai", "grok-5", null, null, LocalDate.of(2026, 11, 25), 1, 7, 3,
                            10, 0, 0, 1, 0),
                    new UsageRow("master", null, null, "xai/grok-4", null, null, LocalDate.of(2026, 11, 25), 1, 0, 0,
                            0, 0, 1, 0, 0),
                    new UsageRow(billing, "billing", "openai", "gpt-5", null, null, LocalDate.of(2026, 11, 26), 1, 2, 2,
                            4, 5, 1, 0, 0)), store.usage(byKeyModelAndDay));
            assertEquals(List.of(new UsageRow(billing, "billing", null, null, null, null, null, 4, 53, 11, 64, 146_005,
                            4, 1, 1)),
                    store.usage(new UsageQuery(LocalDate.of(2026, 11, 1), LocalDate.of(2026, 11, 30),
                            Set.of(Dimension.KEY), Optional.of(billing))));
            assertEquals(List.of(), store.usage(new UsageQuery(LocalDate.of(2026, 11, 24), LocalDate.of(2026, 11, 24),
                    Set.of(Dimension.MODEL), Optional.empty())), "a day without records");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aReportByUpstreamKeyHasARowPerProviderAndKeyCalled(String kind) throws Exception {
        try (Database database = Database.open(kind, folder)) {
            JdbcStore store = database.store();
            String billing = store.createKey("billing", "b".repeat(64), false, KeyPolicy.NONE).id();
            store.recordUsage(List.of(
                    called(billing, "openai", "team-a", 10, 5, 70_000),
                    called(billing, "openai", "team-a", 4, 1, 16_000),
                    called(billing, "openai", "team-b", 30, 0, 60_000),
                    called(billing, "xai", "default", 7, 3, 9_000)));
            store.recordUsage(List.of(called("master", "openai", "default", 2, 2, 5),
                    record(LAST_SECOND, billing, null, null, 0, 0, new Cost.NotBilled(), false)));

            List<UsageRow> byUpstreamKey = store.usage(new UsageQuery(LocalDate.of(2026, 11, 25),
                    LocalDate.of(2026, 11, 25), Set.of(Dimension.UPSTREAM_KEY), Optional.empty()));

            // Most cost first; each provider's "default" a row of its own; a request no provider was
            // called for under no provider and no key.
            assertEquals(List.of(
                    new UsageRow(null, null, "openai", null, "team-a", null, null, 2, 14, 6, 20, 86_000, 2, 0, 0),
                    new UsageRow(null, null, "openai", null, "team-b", null, null, 1, 30, 0, 30, 60_000, 1, 0, 0),
                    new UsageRow(null, null, "xai", null, "default", null, null, 1, 7, 3, 10, 9_000, 1, 0, 0),
                    new UsageRow(null, null, "openai", null, "default", null, null, 1, 2, 2, 4, 5, 1, 0, 0),
                    new UsageRow(null, null, null, null, null, null, null, 1, 0, 0, 0, 0, 1, 0, 0)), byUpstreamKey);
            assertEquals(List.of(
                    new UsageRow(billing, "billing", "openai", "gpt-5", "team-a", null, null, 2, 14, 6, 20, 86_000,
                            2, 0, 0),
                    new UsageRow(billing, "billing", "openai", "gpt-5", "team-b", null, null, 1, 30, 0, 30, 60_000,
                            1, 0, 0)),
                    store.usage(new UsageQuery(LocalDate.of(2026, 11, 25), LocalDate.of(2026, 11, 25),
                            Set.of(Dimension.KEY, Dimension.MODEL, Dimension.UPSTREAM_KEY), Optional.of(billing)))
                            .stream().filter(row -> "gpt-5".equals(row.model())).toList());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void theTextOfEachPriceTableARecordIsPricedByIsKeptBesideIt(String kind) throws Exception {
        try (Database database = Database.open(kind, folder)) {
            JdbcStore store = database.store();
            store.recordUsage(List.of(record(LAST_SECOND, "master", null, null, 0, 0, new Cost.NotBilled(), false),
                    record(LAST_SECOND, "master", "xai", "grok-5", 7, 3, new Cost.Unknown(Cost.Reason.NO_PRICE),
                            false)));
            assertEquals(Optional.empty(), store.priceTable(PRICES.version()), "no record named a table");

            store.recordUsage(List.of(
                    record(LAST_SECOND, "master", "openai", "gpt-5", 10, 5, new Cost.Reported(new Usd(5)), false),
                    record(LAST_SECOND, "master", "openai", "gpt-5", 10, 5, new Cost.Priced(new Usd(70_000),
                            PRICES.version()), false),
                    record(LAST_SECOND, "master", "openai", "gpt-5", 4, 1, new Cost.Estimated(new Usd(16_000),
                            PRICES.version()), false)));
            store.recordUsage(List.of(record(LAST_SECOND, "master", "openai", "gpt-5", 1, 1,
                    new Cost.Priced(new Usd(7_000), PRICES.version()), false)));

            assertEquals(Optional.of(PRICES.canonical()), store.priceTable(PRICES.version()));
            assertEquals(1, database.count("price_tables"));
            assertEquals(6, database.count("usage_records"));
        }
    }

    /** A chat completion of {@code provider}'s model made with its upstream key {@code upstreamKey}, priced. */
    private static UsageRecord called(String keyId, String provider, String upstreamKey, long prompt, long completion,
                                      long costNanos) {
        String model = provider.equals("openai") ? "gpt-5" : "grok-5";
        return new UsageRecord(LAST_SECOND, keyId, provider + "/" + model, provider, model, 200, prompt, completion,
                prompt + completion, 1_000, 500, 0, new Cost.Priced(new Usd(costNanos), PRICES.version()), PRICES,
                false, null, upstreamKey, "chat_completions");
    }

    private static UsageRecord record(Instant time, String keyId, String provider, String model, long prompt,
                                      long completion, Cost cost, boolean failedAttempt) {
        return new UsageRecord(time, keyId, provider == null ? "xai/grok-4" : provider + "/" + model, provider, model,
                failedAttempt ? 503 : provider == null ? 502 : 200, prompt, completion,
                prompt < 0 ? -1 : prompt + completion, 1_000, 500, failedAttempt ? 0 : 1, cost, PRICES,
                failedAttempt);
    }

    /** A new, empty database of one kind and a store open on it. */
    private record Database(JdbcStore store, String url, String user, AutoCloseable drop) implements AutoCloseable {

        static Database open(String kind, Path folder) {
            if (kind.equals("sqlite")) {
                String url = "jdbc:sqlite:" + folder.resolve("gateway.db");
                return new Database(JdbcStore.open(url, Optional.empty(), Optional.empty(), 2), url, null, () -> { });
            }
            LocalPostgres postgres = LocalPostgres.createDatabase();
            return new Database(JdbcStore.open(postgres.url(), Optional.of(postgres.user()), Optional.empty(), 2),
                    postgres.url(), postgres.user(), postgres);
        }

        void execute(String statement) throws SQLException {
            try (Connection connection = connect(); Statement sql = connection.createStatement()) {
                sql.execute(statement);
            }
        }

        long count(String table) throws SQLException {
            try (Connection connection = connect();
                 ResultSet rows = connection.createStatement().executeQuery("SELECT COUNT(*) FROM " + table)) {
                rows.next();
                return rows.getLong(1);
            }
        }

        List<String> rollup() throws SQLException {
            try (Connection connection = connect(); ResultSet rows = connection.createStatement().executeQuery(
                    "SELECT day, key_id, provider, model, requests, prompt_tokens, completion_tokens, total_tokens,"
                            + " cost_nanos, costed, unknown_cost, estimated_cost FROM usage_daily"
                            + " ORDER BY day, key_id, provider, model")) {
                List<String> values = new ArrayList<>();
                while (rows.next()) {
                    StringBuilder row = new StringBuilder(rows.getLong(1) + " " + rows.getString(2) + " "
                            + rows.getString(3) + " " + rows.getString(4) + ":");
                    for (int column = 5; column <= 12; column++) {
                        row.append(' ').append(rows.getLong(column));
                    }
                    values.add(row.toString());
                }
                return values;
            }
        }

        private Connection connect() throws SQLException {
            return user == null ? DriverManager.getConnection(url) : DriverManager.getConnection(url, user, "");
        }

        @Override
        public void close() throws Exception {
            try (AutoCloseable dropLast = drop) {
                store.close();
            }
        }
    }
}
