package io.aigw.runtime.store;

import java.sql.Statement;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * The first schema. Written in the SQL that SQLite and PostgreSQL share, times as epoch
 * milliseconds, so one migration serves both. Given to Flyway as an object rather than found by a
 * class path scan, which the module path would hide.
 */
public final class V1__WorkspaceKeysAndUsage extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws Exception {
        try (Statement sql = context.getConnection().createStatement()) {
            sql.execute("""
                    CREATE TABLE workspace_keys (
                        id VARCHAR(40) PRIMARY KEY,
                        name VARCHAR(200) NOT NULL,
                        key_hash CHAR(64) NOT NULL UNIQUE,
                        admin BOOLEAN NOT NULL,
                        created_at BIGINT NOT NULL,
                        revoked_at BIGINT
                    )""");
            sql.execute("""
                    CREATE TABLE usage_records (
                        recorded_at BIGINT NOT NULL,
                        key_id VARCHAR(40) NOT NULL,
                        requested_model VARCHAR(300) NOT NULL,
                        provider VARCHAR(100),
                        upstream_model VARCHAR(300),
                        status INTEGER NOT NULL,
                        prompt_tokens BIGINT NOT NULL,
                        completion_tokens BIGINT NOT NULL,
                        total_tokens BIGINT NOT NULL,
                        latency_micros BIGINT NOT NULL,
                        first_byte_micros BIGINT NOT NULL,
                        fallbacks INTEGER NOT NULL
                    )""");
            sql.execute("CREATE INDEX usage_records_by_time ON usage_records (recorded_at)");
        }
    }
}
