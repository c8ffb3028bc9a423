package io.aigw.runtime.testing;

import java.sql.SQLException;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The local Redis, under a key prefix of the test class's own, and a PostgreSQL database of its own,
 * for every test of the class, removed after the last: for tests of what several gateways share.
 * Registered in a static field with {@code @RegisterExtension}.
 */
public final class SharedStores implements BeforeAllCallback, AfterAllCallback {
    private LocalRedis redis;
    private LocalPostgres database;

    @Override
    public void beforeAll(ExtensionContext context) {
        redis = LocalRedis.prefix();
        database = LocalPostgres.createDatabase();
    }

    @Override
    public void afterAll(ExtensionContext context) throws SQLException {
        try {
            if (redis != null) {
                redis.close();
            }
        } finally {
            if (database != null) {
                database.close();
            }
        }
    }

    public LocalRedis redis() {
        return redis;
    }

    public LocalPostgres database() {
        return database;
    }
}
