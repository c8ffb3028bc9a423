package io.aigw.runtime.store;

import com.zaxxer.hikari.HikariDataSource;
import io.aigw.runtime.config.DatabaseConfig;
import io.aigw.runtime.config.Secret;
import io.aigw.runtime.pricing.Usd;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * The store on any JDBC database with the shared schema: a pooled data source, the schema brought
 * up to date at open (see {@link SchemaMigrations}), plain SQL that SQLite and PostgreSQL both speak.
 */
public final class JdbcStore implements GatewayStore {
    private static final String KEY_COLUMNS = "id, name, admin, created_at, revoked_at, models, expires_at, rpm, tpm,"
            + " budget_nanos, budget_period";
    private static final SecureRandom RANDOM = new SecureRandom();

    private final HikariDataSource dataSource;
    private final HealthMonitor health;
    private final DatabaseFaults faults;
    private final UsageWriter usage = new UsageWriter();

    private JdbcStore(HikariDataSource dataSource, HealthMonitor health, DatabaseFaults faults) {
        this.dataSource = dataSource;
        this.health = health;
        this.faults = faults;
    }

    /**
     * Opens the database at {@code jdbcUrl} ({@code jdbc:sqlite:<file>} or {@code jdbc:postgresql://...})
     * and applies the migrations it lacks, with the {@linkplain StoreTimeouts#DEFAULTS default timeouts}.
     *
     * @throws StoreException when the database cannot be reached or migrated
     */
    public static JdbcStore open(String jdbcUrl, Optional<String> user, Optional<String> password, int poolSize) {
        return open(jdbcUrl, user, password, poolSize, StoreTimeouts.DEFAULTS);
    }

    /**
     * Opens the database at {@code jdbcUrl} and applies the migrations it lacks.
     *
     * @throws StoreException when the database cannot be reached or migrated
     */
    public static JdbcStore open(String jdbcUrl, Optional<String> user, Optional<String> password, int poolSize,
                                 StoreTimeouts timeouts) {
        HikariDataSource dataSource = StorePool.open(jdbcUrl, user, password, poolSize, timeouts.timeout());
        try {
            SchemaMigrations.bringUpToDate(dataSource, SchemaMigrations.ALL);
        } catch (RuntimeException e) {
            dataSource.close();
            throw new StoreException("Cannot bring the schema of " + StorePool.redact(jdbcUrl) + " up to date: "
                    + StorePool.rootMessage(e), e);
        }
        DatabaseFaults faults = DatabaseFaults.of(StorePool.isSqlite(jdbcUrl));
        return new JdbcStore(dataSource, new HealthMonitor(timeouts.checkInterval(),
                new DatabaseProbe(dataSource, faults == DatabaseFaults.SQLITE, timeouts.timeout()), faults), faults);
    }

    /** Opens the store that {@code gateway.database.*} names. */
    public static JdbcStore open(DatabaseConfig database) {
        return open(database.url(), database.user(), database.password().map(Secret::value), database.poolSize(),
                new StoreTimeouts(database.timeout(), database.checkInterval()));
    }

    @Override
    public StoredKey createKey(String name, String keyHash, boolean admin, KeyPolicy policy) {
        StoredKey key = new StoredKey("key_" + HexFormat.of().formatHex(randomBytes(8)), name, admin,
                Instant.ofEpochMilli(System.currentTimeMillis()), Optional.empty(), policy);
        update("create a key", "INSERT INTO workspace_keys (id, name, key_hash, admin, created_at, models, expires_at,"
                        + " rpm, tpm, budget_nanos, budget_period) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                statement -> {
                    statement.setString(1, key.id());
                    statement.setString(2, name);
                    statement.setString(3, keyHash);
                    statement.setBoolean(4, admin);
                    statement.setLong(5, key.createdAt().toEpochMilli());
                    KeyPolicyColumns.bind(statement, 6, policy);
                });
        return key;
    }

    @Override
    public Optional<StoredKey> updatePolicy(String id, KeyPolicy policy) {
        int found = update("change a key's policy", "UPDATE workspace_keys SET models = ?, expires_at = ?, rpm = ?,"
                + " tpm = ?, budget_nanos = ?, budget_period = ? WHERE id = ?", statement -> {
                    KeyPolicyColumns.bind(statement, 1, policy);
                    statement.setString(7, id);
                });
        if (found == 0) {
            return Optional.empty();
        }
        return query("look up a key", "SELECT " + KEY_COLUMNS + " FROM workspace_keys WHERE id = ?",
                statement -> statement.setString(1, id), JdbcStore::key).stream().findFirst();
    }

    @Override
    public List<StoredKey> listKeys() {
        return query("list keys", "SELECT " + KEY_COLUMNS + " FROM workspace_keys ORDER BY created_at DESC, id",
                statement -> { }, JdbcStore::key);
    }

    @Override
    public boolean revokeKey(String id) {
        int found = update("revoke a key", "UPDATE workspace_keys SET revoked_at = COALESCE(revoked_at, ?) WHERE id = ?",
                statement -> {
                    statement.setLong(1, System.currentTimeMillis());
                    statement.setString(2, id);
                });
        return found > 0;
    }

    @Override
    public Optional<StoredKey> findKey(String keyHash) {
        return query("look up a key", "SELECT " + KEY_COLUMNS + " FROM workspace_keys WHERE key_hash = ?",
                statement -> statement.setString(1, keyHash), JdbcStore::key).stream().findFirst();
    }

    @Override
    public boolean hasKeys() {
        return !query("count keys", "SELECT id FROM workspace_keys LIMIT 1", statement -> { },
                rows -> rows.getString(1)).isEmpty();
    }

    @Override
    public int recordUsage(List<UsageRecord> records) {
        health.admit("record usage");
        int refused;
        try (Connection connection = dataSource.getConnection()) {
            connection.setAutoCommit(false);
            refused = usage.record(connection, records, faults);
        } catch (SQLException e) {
            throw failed("record usage", e, true);
        }
        health.succeeded(true);
        return refused;
    }

    @Override
    public List<UsageRow> usage(UsageQuery query) {
        health.admit("report usage");
        List<UsageRow> rows;
        try (Connection connection = dataSource.getConnection()) {
            rows = UsageReports.run(connection, query);
        } catch (SQLException e) {
            throw failed("report usage", e, false);
        }
        health.succeeded(false);
        return rows;
    }

    @Override
    public Usd spentSince(String keyId, Instant since) {
        // The daily rollup: one row a day, provider and model; periods start at a UTC day's start.
        long day = Math.floorDiv(since.toEpochMilli(), 86_400_000L);
        return query("sum a key's spend", "SELECT COALESCE(SUM(cost_nanos), 0) FROM usage_daily WHERE key_id = ?"
                + " AND day >= ?", statement -> {
                    statement.setString(1, keyId);
                    statement.setLong(2, day);
                }, rows -> new Usd(rows.getLong(1))).get(0);
    }

    @Override
    public Optional<String> priceTable(String version) {
        return query("read a price table", "SELECT canonical FROM price_tables WHERE version = ?",
                statement -> statement.setString(1, version), rows -> rows.getString(1)).stream().findFirst();
    }

    @Override
    public void rememberResponses(List<ResponseOwner> responses) {
        health.admit("remember responses");
        try (Connection connection = dataSource.getConnection();
             PreparedStatement insert = connection.prepareStatement("INSERT INTO responses (id, key_id, provider,"
                     + " upstream_key, created_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING")) {
            connection.setAutoCommit(false);
            try {
                for (ResponseOwner response : responses) {
                    insert.setString(1, response.id());
                    insert.setString(2, response.keyId());
                    insert.setString(3, response.provider());
                    insert.setString(4, response.upstreamKey());
                    insert.setLong(5, response.createdAt().toEpochMilli());
                    insert.addBatch();
                }
                insert.executeBatch();
                connection.commit();
            } catch (SQLException e) {
                Transactions.rollBack(connection, e);
                throw e;
            }
        } catch (SQLException e) {
            throw failed("remember responses", e, true);
        }
        health.succeeded(true);
    }

    @Override
    public Optional<ResponseOwner> response(String id) {
        return query("look up a response", "SELECT id, key_id, provider, upstream_key, created_at FROM responses"
                        + " WHERE id = ?", statement -> statement.setString(1, id), rows -> new ResponseOwner(
                        rows.getString(1), rows.getString(2), rows.getString(3), rows.getString(4),
                        Instant.ofEpochMilli(rows.getLong(5))))
                .stream().findFirst();
    }

    @Override
    public StoreHealth health() {
        return health.health();
    }

    @Override
    public void close() {
        health.close();
        dataSource.close();
    }

    /**
     * Notes a failure with the health monitor. One the database is at fault for also retires the pool's
     * connections: SQLite may have ended a connection's transaction by itself, or kept open read-only a
     * file it could not write, and a connection opened afresh inherits neither.
     */
    private StoreException failed(String what, SQLException e, boolean write) {
        StoreException failure = health.failed(what, e, write);
        if (failure instanceof StoreUnavailableException) {
            dataSource.getHikariPoolMXBean().softEvictConnections();
        }
        return failure;
    }

    private int update(String what, String sql, Binder binder) {
        health.admit(what);
        int changed;
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            binder.bind(statement);
            changed = statement.executeUpdate();
        } catch (SQLException e) {
            throw failed(what, e, true);
        }
        health.succeeded(true);
        return changed;
    }

    private <T> List<T> query(String what, String sql, Binder binder, RowMapper<T> mapper) {
        health.admit(what);
        List<T> result = new ArrayList<>();
        try (Connection connection = dataSource.getConnection();
             PreparedStatement statement = connection.prepareStatement(sql)) {
            binder.bind(statement);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    result.add(mapper.map(rows));
                }
            }
        } catch (SQLException e) {
            throw failed(what, e, false);
        }
        health.succeeded(false);
        return result;
    }

    private static StoredKey key(ResultSet rows) throws SQLException {
        long revoked = rows.getLong(5);
        Optional<Instant> revokedAt = rows.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(revoked));
        return new StoredKey(rows.getString(1), rows.getString(2), rows.getBoolean(3),
                Instant.ofEpochMilli(rows.getLong(4)), revokedAt, KeyPolicyColumns.read(rows, 6));
    }

    private static byte[] randomBytes(int count) {
        byte[] bytes = new byte[count];
        RANDOM.nextBytes(bytes);
        return bytes;
    }

    @FunctionalInterface
    private interface Binder {
        void bind(PreparedStatement statement) throws SQLException;
    }

    @FunctionalInterface
    private interface RowMapper<T> {
        T map(ResultSet rows) throws SQLException;
    }
}
