package io.aigw.runtime.store;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

/**
 * The health monitor's checks: a read of a row, as a key check does, and a write that changes
 * nothing but still has to reach the disk (SQLite's user version set to itself, a PostgreSQL
 * transaction id taken), for a database whose reads work while its writes fail.
 */
final class DatabaseProbe implements HealthMonitor.Probe {
    private final HikariDataSource dataSource;
    private final boolean sqlite;
    private final int timeoutSeconds;

    DatabaseProbe(HikariDataSource dataSource, boolean sqlite, Duration timeout) {
        this.dataSource = dataSource;
        this.sqlite = sqlite;
        this.timeoutSeconds = (int) Math.max(1, timeout.toSeconds());
    }

    @Override
    public void read() throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement sql = connection.createStatement()) {
            sql.setQueryTimeout(timeoutSeconds);
            sql.executeQuery("SELECT id FROM workspace_keys LIMIT 1").close();
        } catch (SQLException e) {
            throw retiringConnections(e);
        }
    }

    @Override
    public void write() throws SQLException {
        try (Connection connection = dataSource.getConnection(); Statement sql = connection.createStatement()) {
            sql.setQueryTimeout(timeoutSeconds);
            if (!sqlite) {
                sql.executeQuery("SELECT txid_current()").close();
                return;
            }
            int version;
            try (ResultSet rows = sql.executeQuery("PRAGMA user_version")) {
                rows.next();
                version = rows.getInt(1);
            }
            sql.execute("PRAGMA user_version = " + version);
        } catch (SQLException e) {
            throw retiringConnections(e);
        }
    }

    /** As JdbcStore does after a fault: the next check, like the next statement, gets a new connection. */
    private SQLException retiringConnections(SQLException e) {
        dataSource.getHikariPoolMXBean().softEvictConnections();
        return e;
    }
}
