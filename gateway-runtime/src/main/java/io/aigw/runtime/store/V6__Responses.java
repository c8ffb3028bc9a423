package io.aigw.runtime.store;

import java.sql.Statement;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * The responses the Responses API created through the gateway, by the id their upstream gave them:
 * which workspace key created each (the only one that may read, delete or cancel it), which
 * provider holds it and with which of its upstream keys (where those calls go). {@code created_at} in epoch milliseconds, as every time.
 */
public final class V6__Responses extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws Exception {
        try (Statement sql = context.getConnection().createStatement()) {
            sql.execute("""
                    CREATE TABLE responses (
                        id VARCHAR(300) PRIMARY KEY,
                        key_id VARCHAR(40) NOT NULL,
                        provider VARCHAR(100) NOT NULL,
                        upstream_key VARCHAR(100) NOT NULL,
                        created_at BIGINT NOT NULL
                    )""");
        }
    }
}
