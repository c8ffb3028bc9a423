package io.aigw.runtime.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * Where keys and usage records live: {@code gateway.database.*}.
 *
 * @param url      a JDBC URL, {@code jdbc:sqlite:<file>} or {@code jdbc:postgresql://...}
 * @param poolSize      the most connections kept open to the database
 * @param timeout       the longest a request waits for a connection (and, on PostgreSQL, to connect)
 *                      before it is answered 503
 * @param checkInterval how often the database is checked off the request path; readiness reports
 *                      it and a caller's {@code Retry-After} names it
 */
public record DatabaseConfig(String url, Optional<String> user, Optional<Secret> password, int poolSize,
                             Duration timeout, Duration checkInterval) {
    private static final int DEFAULT_POOL_SIZE = 8;
    private static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration DEFAULT_CHECK_INTERVAL = Duration.ofSeconds(2);

    /**
     * Reads {@code gateway.database.*}; the URL defaults to the SQLite file {@code data/gateway.db}
     * under the gateway's home folder (the system property {@code gateway.home}, else the working folder).
     */
    public static DatabaseConfig read(Settings settings) {
        String home = System.getProperty("gateway.home", ".");
        return new DatabaseConfig(
                settings.get("gateway.database.url", "jdbc:sqlite:" + Path.of(home, "data", "gateway.db")),
                settings.get("gateway.database.user"),
                settings.get("gateway.database.password").map(Secret::new),
                settings.getInt("gateway.database.pool-size", DEFAULT_POOL_SIZE),
                settings.getDuration("gateway.database.timeout", DEFAULT_TIMEOUT),
                settings.getDuration("gateway.database.check-interval", DEFAULT_CHECK_INTERVAL));
    }
}
