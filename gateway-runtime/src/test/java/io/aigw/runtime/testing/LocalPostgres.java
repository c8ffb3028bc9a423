package io.aigw.runtime.testing;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;

/**
 * A throw-away database on the local PostgreSQL (127.0.0.1:5432, user postgres, trust auth), made
 * through the {@code postgres} database and dropped {@code WITH (FORCE)} by {@link #close()}.
 *
 * <p>When the server cannot be reached, a test on a laptop is skipped with the reason; in CI
 * ({@code CI=true}), where PostgreSQL is always started (see {@code .ci/run}), it fails: a
 * PostgreSQL test must never be skipped silently there. Typical use, one database per class:
 *
 * <pre>{@code
 * @BeforeAll static void database() { database = LocalPostgres.createDatabase(); }
 * @AfterAll static void drop() throws SQLException { if (database != null) database.close(); }
 * }</pre>
 */
public final class LocalPostgres implements AutoCloseable {
    public static final String HOST_AND_PORT = "127.0.0.1:5432";
    private static final String USER = "postgres";

    private final String server;
    private final String database;

    private LocalPostgres(String server, String database) {
        this.server = server;
        this.database = database;
    }

    /** Creates a fresh database {@code aigw_test_<random>}, or skips/fails the test as described above. */
    public static LocalPostgres createDatabase() {
        return createDatabase(HOST_AND_PORT, System.getenv());
    }

    /** {@link #createDatabase()} against another server and environment, to test this helper itself. */
    static LocalPostgres createDatabase(String hostAndPort, Map<String, String> environment) {
        String server = "jdbc:postgresql://" + hostAndPort + "/";
        String name = "aigw_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 16);
        Connection connection;
        try {
            connection = connect(server);
        } catch (SQLException e) {
            skipOrFail("PostgreSQL is not reachable at " + hostAndPort + ": " + e.getMessage(), environment, e);
            throw new AssertionError("unreachable");
        }
        // Reached but unable to create a database is a real failure, never a skip.
        try (connection; Statement sql = connection.createStatement()) {
            sql.execute("CREATE DATABASE " + name);
        } catch (SQLException e) {
            Assertions.fail("PostgreSQL at " + hostAndPort + " is up but cannot create a test database: "
                    + e.getMessage(), e);
        }
        return new LocalPostgres(server, name);
    }

    /**
     * Skips the test with {@code reason}, or fails it in CI ({@code CI=true}), where PostgreSQL is
     * installed and started (see {@code .ci/run}) and a PostgreSQL test must never be skipped silently.
     */
    static void skipOrFail(String reason, Map<String, String> environment, Throwable cause) {
        if ("true".equalsIgnoreCase(environment.get("CI"))) {
            Assertions.fail(reason + " (CI=true, where PostgreSQL must run: see .ci/run)", cause);
        }
        Assumptions.abort(reason);
    }

    /** The JDBC URL of this database, for {@code gateway.database.url}. */
    public String url() {
        return server + database;
    }

    public String user() {
        return USER;
    }

    public String name() {
        return database;
    }

    /** Opens a plain connection to this database, to read what the gateway stored. */
    public Connection connect() throws SQLException {
        return DriverManager.getConnection(url(), USER, "");
    }

    /** Drops the database, ending any session the gateways under test left open. */
    @Override
    public void close() throws SQLException {
        try (Connection connection = connect(server); Statement sql = connection.createStatement()) {
            sql.execute("DROP DATABASE IF EXISTS " + database + " WITH (FORCE)");
        }
    }

    private static Connection connect(String server) throws SQLException {
        // connectTimeout (seconds): a firewalled port must not hang the build.
        return DriverManager.getConnection(server + "postgres?connectTimeout=5", USER, "");
    }
}
