package io.aigw.runtime.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A throw-away database on the local PostgreSQL (127.0.0.1:5432, user postgres, trust auth).
 * Without a reachable server the test is skipped with a message on a laptop, and fails in CI
 * ({@code CI=true}), where PostgreSQL is always started.
 */
public final class LocalPostgres implements AutoCloseable {
    private static final String SERVER = "jdbc:postgresql://127.0.0.1:5432/";
    private static final String USER = "postgres";

    private final String database;

    private LocalPostgres(String database) {
        this.database = database;
    }

    /** Creates a fresh database, or skips/fails the test as described above. */
    public static LocalPostgres createDatabase() {
        String name = "aigw_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12)
                .toLowerCase(Locale.ROOT);
        try (Connection connection = DriverManager.getConnection(SERVER + "postgres", USER, "");
             Statement sql = connection.createStatement()) {
            sql.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            String reason = "PostgreSQL is not reachable at 127.0.0.1:5432: " + e.getMessage();
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail(reason + " (CI starts it: see .ci/run)");
            }
            Assumptions.abort(reason);
        }
        return new LocalPostgres(name);
    }

    public String url() {
        return SERVER + database;
    }

    public String user() {
        return USER;
    }

    @Override
    public void close() throws SQLException {
        try (Connection connection = DriverManager.getConnection(SERVER + "postgres", USER, "");
             Statement sql = connection.createStatement()) {
            sql.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
    }
}
