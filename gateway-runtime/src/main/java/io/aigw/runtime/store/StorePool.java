package io.aigw.runtime.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Optional;

/** The pooled data source of a JDBC URL, set up so that a failing database fails requests fast and safely. */
final class StorePool {
    private static final String SQLITE = "jdbc:sqlite:";
    /** Hikari's smallest connection timeout. */
    private static final long MIN_TIMEOUT_MILLIS = 250;

    private StorePool() {
    }

    static boolean isSqlite(String jdbcUrl) {
        return jdbcUrl.startsWith(SQLITE);
    }

    /**
     * @throws StoreException when the pool cannot be made, e.g. the database does not answer
     */
    static HikariDataSource open(String jdbcUrl, Optional<String> user, Optional<String> password, int poolSize,
                                 Duration timeout) {
        HikariConfig config = new HikariConfig();
        user.ifPresent(config::setUsername);
        password.ifPresent(config::setPassword);
        config.setMaximumPoolSize(poolSize);
        // Connections open as load needs them, not all at start-up.
        config.setMinimumIdle(1);
        config.setPoolName("aigw-store");
        // Hikari's default, 30 s, is how long every key check waited on a stopped database.
        long timeoutMillis = Math.max(MIN_TIMEOUT_MILLIS, timeout.toMillis());
        config.setConnectionTimeout(timeoutMillis);
        config.setValidationTimeout(timeoutMillis);
        if (isSqlite(jdbcUrl)) {
            plainSqliteFile(jdbcUrl).ifPresent(StorePool::createParentFolder);
            config.setJdbcUrl(exclusiveSqlite(jdbcUrl));
            // WAL lets key lookups read while the usage writer writes; busy_timeout waits out the writer.
            config.addDataSourceProperty("journal_mode", "WAL");
            config.addDataSourceProperty("busy_timeout", "5000");
            // With WAL, NORMAL syncs at checkpoints rather than at every commit: a power cut may lose
            // the last usage batch, a crashed process loses nothing.
            config.addDataSourceProperty("synchronous", "NORMAL");
        } else {
            config.setJdbcUrl(jdbcUrl);
            // PostgreSQL's driver counts whole seconds and waits 10 s to connect by default.
            String seconds = Long.toString(Math.max(1, (timeoutMillis + 999) / 1000));
            config.addDataSourceProperty("connectTimeout", seconds);
            config.addDataSourceProperty("loginTimeout", seconds);
        }
        try {
            return new HikariDataSource(config);
        } catch (RuntimeException e) {
            throw new StoreException("Cannot open the database " + redact(jdbcUrl) + " (gateway.database.url): "
                    + rootMessage(e) + (isSqlite(jdbcUrl) && heldByAnotherProcess(e) ? ". Another process holds the"
                    + " file, such as a gateway running on it: while it runs, use its admin API." : ""), e);
        }
    }

    /**
     * The URL of an SQLite file opened with the {@code unix-excl} VFS. SQLite's default keeps WAL's
     * index in a {@code -shm} file that every connection maps into memory; a write to that mapping
     * once the file can no longer be written (made immutable, its file system remounted read-only)
     * is a SIGBUS that kills the JVM. {@code unix-excl} keeps the index in the heap instead, which
     * works because one process holds the file: its connections share the index, and another process
     * finds the database locked. A URL that is already a {@code file:} URI, or an in-memory
     * database, is left as written.
     */
    static String exclusiveSqlite(String jdbcUrl) {
        return plainSqliteFile(jdbcUrl).map(file -> {
            int query = jdbcUrl.indexOf('?');
            // In a URI these three would end or escape the path.
            String escaped = file.replace("%", "%25").replace("?", "%3f").replace("#", "%23");
            return SQLITE + "file:" + escaped + "?vfs=unix-excl" + (query < 0 ? "" : "&" + jdbcUrl.substring(query + 1));
        }).orElse(jdbcUrl);
    }

    /** The file of a {@code jdbc:sqlite:<file>} URL; empty for an in-memory database or a {@code file:} URI. */
    private static Optional<String> plainSqliteFile(String jdbcUrl) {
        String file = jdbcUrl.substring(SQLITE.length()).split("\\?", 2)[0];
        return file.isEmpty() || file.startsWith(":memory:") || file.startsWith("file:") ? Optional.empty()
                : Optional.of(file);
    }

    private static void createParentFolder(String file) {
        Path parent = Path.of(file).toAbsolutePath().getParent();
        try {
            Files.createDirectories(parent);
        } catch (IOException e) {
            throw new StoreException("Cannot create the folder " + parent + " for the database: " + e.getMessage(), e);
        }
    }

    private static boolean heldByAnotherProcess(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql) {
                return DatabaseFaults.SQLITE.unavailability(sql).filter("locked"::equals).isPresent();
            }
        }
        return false;
    }

    /** A JDBC URL may carry a password; error messages show it without the query part. */
    static String redact(String jdbcUrl) {
        int query = jdbcUrl.indexOf('?');
        return query < 0 ? jdbcUrl : jdbcUrl.substring(0, query) + "?...";
    }

    static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
    }
}
