package io.aigw.runtime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aigw.runtime.batch.BatchWriter;
import io.aigw.runtime.observe.GatewayMetrics;
import io.aigw.runtime.observe.UsageDrops;
import io.aigw.runtime.pricing.Cost;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.testing.LocalPostgres;
import io.helidon.metrics.api.Counter;
import io.helidon.metrics.api.Metrics;
import io.helidon.metrics.api.Tag;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch of usage records, whatever its size, lands whole: every record once, after the batches
 * before it, on SQLite and on PostgreSQL (skipped without PostgreSQL on a laptop, failed in CI). A
 * record the database refuses for its data is left out, counted, and takes no other record with it.
 */
public final class UsageBatchTest {
    @TempDir
    Path folder;

    @Test
    void batchesOfEverySizeLandWholeOnSqlite() throws SQLException {
        String url = "jdbc:sqlite:" + folder.resolve("gateway.db");
        try (JdbcStore store = JdbcStore.open(url, Optional.empty(), Optional.empty(), 2)) {
            assertBatchesLandWhole(store, () -> DriverManager.getConnection(url));
        }
    }

    @Test
    void batchesOfEverySizeLandWholeOnPostgres() throws SQLException {
        try (LocalPostgres database = LocalPostgres.createDatabase();
             JdbcStore store = JdbcStore.open(database.url(), Optional.of(database.user()), Optional.empty(), 2)) {
            assertBatchesLandWhole(store, database::connect);
        }
    }

    @Test
    void aBatchThatFailsHalfWayLeavesNothingStoredOnSqlite() throws SQLException {
        String url = "jdbc:sqlite:" + folder.resolve("gateway.db");
        try (JdbcStore store = JdbcStore.open(url, Optional.empty(), Optional.empty(), 2)) {
            assertAFailedBatchLeavesNothing(store, () -> DriverManager.getConnection(url));
        }
    }

    @Test
    void aBatchThatFailsHalfWayLeavesNothingStoredOnPostgres() throws SQLException {
        try (LocalPostgres database = LocalPostgres.createDatabase();
             JdbcStore store = JdbcStore.open(database.url(), Optional.of(database.user()), Optional.empty(), 2)) {
            assertAFailedBatchLeavesNothing(store, database::connect);
        }
    }

    @Test
    void aRecordPostgresRefusesIsLeftOutAndTheRestOfItsBatchIsStoredAndSummed() throws SQLException {
        try (LocalPostgres database = LocalPostgres.createDatabase();
             JdbcStore store = JdbcStore.open(database.url(), Optional.of(database.user()), Optional.empty(), 2)) {
            List<UsageRecord> batch = new ArrayList<>(IntStream.range(0, 40).mapToObj(UsageBatchTest::record).toList());
            // PostgreSQL text cannot hold U+0000: this record alone fails, wherever it stands in the batch.
            batch.add(17, withModel(record(100), "openai/a\u0000b"));

            int refused = store.recordUsage(batch);

            assertEquals(1, refused);
            List<String> expected = IntStream.range(0, 40).mapToObj(n -> "openai/m" + n + " " + (1_000 + n)).toList();
            assertEquals(expected, stored(database::connect), "every record but the refused one");
            try (Connection connection = database.connect(); ResultSet rows = connection.createStatement()
                    .executeQuery("SELECT COUNT(*), SUM(requests), SUM(total_tokens) FROM usage_daily")) {
                rows.next();
                assertEquals(List.of(40L, 40L, 280L), List.of(rows.getLong(1), rows.getLong(2), rows.getLong(3)),
                        "the rollup sums the stored records and only them");
            }
        }
    }

    @Test
    void aRecordPostgresRefusesThroughTheWriterIsCountedAsBadRecordAndTheOthersAreStored() throws SQLException {
        try (LocalPostgres database = LocalPostgres.createDatabase();
             JdbcStore store = JdbcStore.open(database.url(), Optional.of(database.user()), Optional.empty(), 2)) {
            UsageDrops drops = new UsageDrops(new GatewayMetrics(Metrics::globalRegistry, Set.of()));
            double before = dropped("bad_record");
            // Wired as the gateway wires it; a long linger keeps the 21 records in one batch.
            try (BatchWriter<UsageRecord> writer = new BatchWriter<>("usage records", 100, Duration.ofSeconds(30),
                    records -> drops.refused(store.recordUsage(records)), BatchWriter.Retry.NEVER, drops)) {
                IntStream.range(0, 10).mapToObj(UsageBatchTest::record).forEach(writer::offer);
                writer.offer(withModel(record(100), "openai/\u0000"));
                IntStream.range(10, 20).mapToObj(UsageBatchTest::record).forEach(writer::offer);
            }

            assertEquals(20, stored(database::connect).size(), "the 20 good records of the batch");
            assertEquals(1, dropped("bad_record") - before, "the refused record, counted by its reason");
        }
    }

    private static UsageRecord withModel(UsageRecord record, String model) {
        return new UsageRecord(record.time(), record.keyId(), model, record.provider(), record.upstreamModel(),
                record.status(), record.promptTokens(), record.completionTokens(), record.totalTokens(),
                record.latencyMicros(), record.firstByteMicros(), record.fallbacks(), record.cost(), record.prices(),
                record.failedAttempt(), record.traceId(), record.upstreamKey(), record.endpoint());
    }

    private static double dropped(String reason) {
        return Metrics.globalRegistry().counter("gateway.usage.records.dropped",
                List.of(Tag.create("reason", reason))).map(Counter::count).orElse(0L);
    }

    /**
     * A batch whose last record names a price table other than the one it carries fails after its
     * records were inserted (a bug the writer refuses to store): none of them is kept, and the
     * batches before and after it land.
     */
    private static void assertAFailedBatchLeavesNothing(JdbcStore store, Connector database) throws SQLException {
        store.recordUsage(List.of(record(0)));
        List<UsageRecord> failing = new ArrayList<>(IntStream.range(1, 11).mapToObj(UsageBatchTest::record).toList());
        UsageRecord mismatched = record(11);
        failing.add(new UsageRecord(mismatched.time(), mismatched.keyId(), mismatched.requestedModel(),
                mismatched.provider(), mismatched.upstreamModel(), mismatched.status(), mismatched.promptTokens(),
                mismatched.completionTokens(), mismatched.totalTokens(), mismatched.latencyMicros(),
                mismatched.firstByteMicros(), mismatched.fallbacks(), new Cost.Priced(new Usd(1_000), "0123456789ab"),
                PriceBook.of(Map.of()), false));

        assertThrows(IllegalStateException.class, () -> store.recordUsage(failing));
        store.recordUsage(List.of(record(12)));

        assertEquals(List.of("openai/m0 1000", "openai/m12 1012"), stored(database),
                "the batches before and after; nothing of the failed one");
    }

    /** One record, a few, and the writer's largest batch, each after the one before. */
    private static void assertBatchesLandWhole(JdbcStore store, Connector database) throws SQLException {
        List<String> expected = new ArrayList<>();
        int first = 0;
        for (int size : new int[] {1, 32, 45, 500}) {
            List<UsageRecord> batch = IntStream.range(first, first + size).mapToObj(UsageBatchTest::record).toList();
            store.recordUsage(batch);
            batch.forEach(record -> expected.add(record.requestedModel() + " " + record.latencyMicros()));
            first += size;
            assertEquals(expected, stored(database), "after a batch of " + size);
        }
    }

    private static UsageRecord record(int number) {
        return new UsageRecord(Instant.ofEpochMilli(1_700_000_000_000L + number), "key_" + number, "openai/m" + number,
                "openai", "m" + number, 200, 3, 4, 7, 1_000 + number, 500, 0, new Cost.Unknown(Cost.Reason.NO_PRICE),
                PriceBook.of(Map.of()), false);
    }

    private static List<String> stored(Connector database) throws SQLException {
        try (Connection connection = database.connect(); ResultSet rows = connection.createStatement().executeQuery(
                "SELECT requested_model, latency_micros FROM usage_records ORDER BY recorded_at, latency_micros")) {
            List<String> stored = new ArrayList<>();
            while (rows.next()) {
                stored.add(rows.getString(1) + " " + rows.getLong(2));
            }
            return stored;
        }
    }

    private interface Connector {
        Connection connect() throws SQLException;
    }
}
