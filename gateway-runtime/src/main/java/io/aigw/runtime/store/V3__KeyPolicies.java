package io.aigw.runtime.store;

import java.sql.Statement;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * A key's policies ({@link KeyPolicy}) as columns of its row, null where the key has none:
 * {@code models} holds the allowed patterns one a line. One column a statement, as SQLite adds them.
 */
public final class V3__KeyPolicies extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws Exception {
        try (Statement sql = context.getConnection().createStatement()) {
            sql.execute("ALTER TABLE workspace_keys ADD COLUMN models TEXT");
            sql.execute("ALTER TABLE workspace_keys ADD COLUMN expires_at BIGINT");
            sql.execute("ALTER TABLE workspace_keys ADD COLUMN rpm BIGINT");
            sql.execute("ALTER TABLE workspace_keys ADD COLUMN tpm BIGINT");
        }
    }
}
