package io.aigw.runtime.store;

import io.aigw.runtime.batch.BatchWriter;
import io.aigw.runtime.pricing.Cost;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.text.LogText;
import java.lang.System.Logger.Level;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes a batch of usage records in one transaction: the records, the text of each price table a
 * record's cost names that the database may not have yet, and the records added into the daily
 * rollup ({@code usage_daily}), so that the rollup is never behind the records it sums.
 */
final class UsageWriter {
    private static final System.Logger LOG = System.getLogger(UsageWriter.class.getName());
    /**
     * Rows sent to the database at a time, giving the core way in between ({@link BatchWriter#giveWay}):
     * the kernel lets the writer run on until it gives way, so a request made ready meanwhile waits
     * for the core as long as a step takes.
     */
    private static final int ROWS_PER_STEP = 4;
    private static final long MILLIS_PER_DAY = 86_400_000L;
    private static final String INSERT_RECORD = "INSERT INTO usage_records (recorded_at, key_id, requested_model,"
            + " provider, upstream_model, status, prompt_tokens, completion_tokens, total_tokens, latency_micros,"
            + " first_byte_micros, fallbacks, cost_nanos, cost_basis, price_version, failed_attempt,"
            + " trace_id, upstream_key, endpoint) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
    private static final String KEEP_TABLE = "INSERT INTO price_tables (version, canonical, first_used_at)"
            + " VALUES (?, ?, ?) ON CONFLICT (version) DO NOTHING";
    private static final String ADD_TO_DAY = "INSERT INTO usage_daily (day, key_id, provider, model, endpoint,"
            + " upstream_key, requests, prompt_tokens, completion_tokens, total_tokens, cost_nanos, costed,"
            + " unknown_cost, estimated_cost) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (day, key_id, provider, model, endpoint, upstream_key) DO UPDATE SET"
            + " requests = usage_daily.requests + excluded.requests,"
            + " prompt_tokens = usage_daily.prompt_tokens + excluded.prompt_tokens,"
            + " completion_tokens = usage_daily.completion_tokens + excluded.completion_tokens,"
            + " total_tokens = usage_daily.total_tokens + excluded.total_tokens,"
            + " cost_nanos = usage_daily.cost_nanos + excluded.cost_nanos,"
            + " costed = usage_daily.costed + excluded.costed,"
            + " unknown_cost = usage_daily.unknown_cost + excluded.unknown_cost,"
            + " estimated_cost = usage_daily.estimated_cost + excluded.estimated_cost";
    /** In the order of the rollup's primary key: replicas adding to the same rows lock them in one order. */
    private static final Comparator<Group> KEY_ORDER = Comparator.comparingLong(Group::day)
            .thenComparing(Group::keyId).thenComparing(Group::provider).thenComparing(Group::model)
            .thenComparing(Group::endpoint).thenComparing(Group::upstreamKey);

    /** The versions known to be in {@code price_tables}: each table's text is written once per process. */
    private final Set<String> keptTables = ConcurrentHashMap.newKeySet();
    /** The insert and the rollup's upsert, kept prepared from batch to batch; guarded by this writer. */
    private final KeptStatements statements = new KeptStatements();

    /**
     * Writes the records in the transaction {@code connection} has open and commits it. A batch the
     * database refuses for one record's data is written again a record at a time, leaving out each
     * record it refuses; whatever else fails is rolled back.
     *
     * @return how many records were refused for their data and left out
     * @throws SQLException when the database cannot serve ({@code faults} says so): the batch is then
     *                      no one record's fault, and is rolled back whole for another try
     */
    synchronized int record(Connection connection, List<UsageRecord> records, DatabaseFaults faults)
            throws SQLException {
        Written written;
        try {
            written = writeAndCommit(connection, records, faults);
        } catch (RuntimeException e) {
            // The pool rolls back on return only what ran through its own wrapper, and the kept
            // statements run on the connection under it: roll back here, or resetting the
            // connection's auto-commit would commit half a batch.
            Transactions.rollBack(connection, e);
            throw e;
        }
        // The price tables a committed batch wrote are in the database for good.
        keptTables.addAll(written.tables());
        return written.refused();
    }

    private Written writeAndCommit(Connection connection, List<UsageRecord> records, DatabaseFaults faults)
            throws SQLException {
        try {
            Written written = new Written(write(connection, records), 0);
            connection.commit();
            return written;
        } catch (SQLException e) {
            Transactions.rollBack(connection, e);
            if (faults.unavailability(e).isPresent()) {
                throw e;
            }
            // The statement's own fault, so a record's data (PostgreSQL refuses a NUL in text): the
            // batch is written again a record at a time, and only the records refused are left out.
            try {
                Written written = writeEach(connection, records, faults);
                connection.commit();
                return written;
            } catch (SQLException again) {
                Transactions.rollBack(connection, again);
                again.addSuppressed(e);
                throw again;
            }
        }
    }

    /** Writes the records; returns the price tables this batch wrote. */
    private List<String> write(Connection connection, List<UsageRecord> records) throws SQLException {
        insertRecords(connection, records);
        List<String> tables = keepPriceTables(connection, records);
        addToRollup(connection, records);
        return tables;
    }

    /**
     * Writes the records one at a time, each under a savepoint, leaving out each one the database
     * refuses for its data; the rest as {@link #write} does, in the same transaction.
     */
    private Written writeEach(Connection connection, List<UsageRecord> records, DatabaseFaults faults)
            throws SQLException {
        List<UsageRecord> accepted = new ArrayList<>(records.size());
        int refused = 0;
        for (UsageRecord record : records) {
            Savepoint before = connection.setSavepoint();
            try {
                insertRecords(connection, List.of(record));
                accepted.add(record);
            } catch (SQLException e) {
                if (faults.unavailability(e).isPresent()) {
                    throw e;
                }
                connection.rollback(before);
                if (refused++ == 0) {
                    LOG.log(Level.WARNING, "The database refused a usage record of key " + record.keyId()
                            + " for its data; it is left out and the others are written: "
                            + LogText.escaped(String.valueOf(e.getMessage())));
                }
            }
        }
        List<String> tables = keepPriceTables(connection, accepted);
        addToRollup(connection, accepted);
        return new Written(tables, refused);
    }

    /** What a batch wrote: the price tables it added and how many of its records were refused for their data. */
    private record Written(List<String> tables, int refused) {
    }

    private void insertRecords(Connection connection, List<UsageRecord> records) throws SQLException {
        PreparedStatement insert = statements.of(connection, INSERT_RECORD);
        int unsent = 0;
        for (UsageRecord record : records) {
            insert.setLong(1, record.time().toEpochMilli());
            insert.setString(2, record.keyId());
            insert.setString(3, truncate(record.requestedModel(), 300));
            setNullable(insert, 4, record.provider());
            setNullable(insert, 5, truncate(record.upstreamModel(), 300));
            insert.setInt(6, record.status());
            insert.setLong(7, record.promptTokens());
            insert.setLong(8, record.completionTokens());
            insert.setLong(9, record.totalTokens());
            insert.setLong(10, record.latencyMicros());
            insert.setLong(11, record.firstByteMicros());
            insert.setInt(12, record.fallbacks());
            Cost cost = record.cost();
            Optional<Usd> amount = cost.amount();
            if (amount.isPresent()) {
                insert.setLong(13, amount.get().nanos());
            } else {
                insert.setNull(13, Types.BIGINT);
            }
            insert.setInt(14, cost.basis().code());
            setNullable(insert, 15, cost.priceVersion().orElse(null));
            insert.setBoolean(16, record.failedAttempt());
            setNullable(insert, 17, record.traceId());
            setNullable(insert, 18, record.upstreamKey());
            insert.setString(19, record.endpoint());
            unsent = addRow(insert, unsent, records.size());
        }
        if (unsent > 0) {
            insert.executeLargeBatch();
        }
    }

    private List<String> keepPriceTables(Connection connection, List<UsageRecord> records) throws SQLException {
        Map<String, PriceBook> missing = new TreeMap<>();
        // A plain loop: Optional's filter and ifPresent took two capturing lambdas a record.
        for (UsageRecord record : records) {
            String version = record.cost().priceVersion().orElse(null);
            if (version != null && !keptTables.contains(version)) {
                missing.putIfAbsent(version, record.prices());
            }
        }
        if (missing.isEmpty()) {
            return List.of();
        }
        try (PreparedStatement keep = connection.prepareStatement(KEEP_TABLE)) {
            for (Map.Entry<String, PriceBook> table : missing.entrySet()) {
                if (!table.getValue().version().equals(table.getKey())) {
                    // A cost names the table that priced it; a record pairing it with another is a bug.
                    throw new IllegalStateException("a usage record's cost names price table " + table.getKey()
                            + " but carries table " + table.getValue().version());
                }
                keep.setString(1, table.getKey());
                keep.setString(2, table.getValue().canonical());
                keep.setLong(3, System.currentTimeMillis());
                keep.addBatch();
            }
            keep.executeBatch();
        }
        return List.copyOf(missing.keySet());
    }

    private void addToRollup(Connection connection, List<UsageRecord> records) throws SQLException {
        Map<Group, long[]> groups = new HashMap<>();
        for (UsageRecord record : records) {
            // A request no provider was tried for (refused, or not routable) is kept under the model its
            // caller asked for, and no provider: a report shows what was refused, not an unnamed row.
            Group group = new Group(Math.floorDiv(record.time().toEpochMilli(), MILLIS_PER_DAY), record.keyId(),
                    record.provider() == null ? "" : record.provider(),
                    truncate(record.provider() == null ? record.requestedModel() : record.upstreamModel(), 300),
                    record.endpoint(), record.upstreamKey() == null ? "" : record.upstreamKey());
            long[] sums = groups.computeIfAbsent(group, ignored -> new long[8]);
            Cost cost = record.cost();
            Optional<Usd> amount = cost.amount();
            sums[0] += record.failedAttempt() ? 0 : 1;
            sums[1] += Math.max(0, record.promptTokens());
            sums[2] += Math.max(0, record.completionTokens());
            sums[3] += Math.max(0, record.totalTokens());
            sums[4] = Math.addExact(sums[4], amount.isPresent() ? amount.get().nanos() : 0L);
            sums[5] += amount.isPresent() ? 1 : 0;
            sums[6] += amount.isPresent() ? 0 : 1;
            sums[7] += cost.basis() == Cost.Basis.ESTIMATED ? 1 : 0;
        }
        List<Group> ordered = groups.keySet().stream().sorted(KEY_ORDER).toList();
        PreparedStatement add = statements.of(connection, ADD_TO_DAY);
        int unsent = 0;
        for (Group group : ordered) {
            long[] sums = groups.get(group);
            add.setLong(1, group.day());
            add.setString(2, group.keyId());
            add.setString(3, group.provider());
            add.setString(4, group.model());
            add.setString(5, group.endpoint());
            add.setString(6, group.upstreamKey());
            for (int i = 0; i < sums.length; i++) {
                add.setLong(7 + i, sums[i]);
            }
            unsent = addRow(add, unsent, records.size());
        }
        if (unsent > 0) {
            add.executeLargeBatch();
        }
    }

    /**
     * Adds the row set on {@code statement} to its batch, and sends the batch once it holds
     * {@link #ROWS_PER_STEP} rows, giving the core way after.
     *
     * @return the rows batched and not sent yet
     */
    private static int addRow(PreparedStatement statement, int unsent, int batchSize) throws SQLException {
        statement.addBatch();
        if (unsent + 1 < ROWS_PER_STEP) {
            return unsent + 1;
        }
        // Not executeBatch, whose int counts SQLite's driver makes out of these with a stream on
        // every step: 0.35 us a request in the writer's profile.
        statement.executeLargeBatch();
        BatchWriter.giveWay(batchSize);
        return 0;
    }

    /**
     * One row of the rollup: a key's use of a provider's model on an endpoint on a day, with one of
     * the provider's upstream keys ({@code ''} when no provider was called).
     */
    private record Group(long day, String keyId, String provider, String model, String endpoint, String upstreamKey) {
    }

    private static void setNullable(PreparedStatement statement, int index, String value) throws SQLException {
        if (value == null) {
            statement.setNull(index, Types.VARCHAR);
        } else {
            statement.setString(index, value);
        }
    }

    private static String truncate(String value, int length) {
        return value == null || value.length() <= length ? value : value.substring(0, length);
    }
}
