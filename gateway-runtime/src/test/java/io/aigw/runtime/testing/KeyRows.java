package io.aigw.runtime.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The rows of {@code workspace_keys} as the database holds them, read over plain JDBC and not
 * through the gateway's store: what a test checks the gateway wrote.
 */
public record KeyRows(String id, String name, String keyHash, boolean admin, long createdAt, Optional<Long> revokedAt) {

    /** Every row, oldest first. */
    public static List<KeyRows> read(Connection connection) throws SQLException {
        List<KeyRows> rows = new ArrayList<>();
        try (Statement sql = connection.createStatement();
             ResultSet result = sql.executeQuery("SELECT id, name, key_hash, admin, created_at, revoked_at"
                     + " FROM workspace_keys ORDER BY created_at, id")) {
            while (result.next()) {
                long revoked = result.getLong("revoked_at");
                Optional<Long> revokedAt = result.wasNull() ? Optional.empty() : Optional.of(revoked);
                rows.add(new KeyRows(result.getString("id"), result.getString("name"), result.getString("key_hash"),
                        result.getBoolean("admin"), result.getLong("created_at"), revokedAt));
            }
        }
        return rows;
    }

    /** Every row of a database given by JDBC URL (SQLite needs no user). */
    public static List<KeyRows> read(String jdbcUrl) throws SQLException {
        try (Connection connection = DriverManager.getConnection(jdbcUrl)) {
            return read(connection);
        }
    }

    /** The row with {@code id}; fails when there is none. */
    public static KeyRows byId(List<KeyRows> rows, String id) {
        return rows.stream().filter(row -> row.id().equals(id)).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + id + " in workspace_keys: " + rows));
    }

    /** Every column of every row as text, whatever the columns are, to search for what must not be there. */
    public static String everyColumn(Connection connection) throws SQLException {
        StringBuilder text = new StringBuilder();
        try (Statement sql = connection.createStatement();
             ResultSet result = sql.executeQuery("SELECT * FROM workspace_keys")) {
            int columns = result.getMetaData().getColumnCount();
            while (result.next()) {
                for (int column = 1; column <= columns; column++) {
                    text.append(result.getMetaData().getColumnName(column)).append('=')
                            .append(result.getString(column)).append('\t');
                }
                text.append('\n');
            }
        }
        return text.toString();
    }
}
