package io.aigw.runtime.store;

import java.sql.Statement;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * A key's USD budget ({@link KeyPolicy#budget()}) as columns of its row, null where it has none:
 * {@code budget_nanos} in nano-dollars as usage records keep costs, {@code budget_period}
 * {@code day} or {@code month}, null for a lifetime budget. One column a statement, as SQLite adds them.
 */
public final class V4__KeyBudgets extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws Exception {
        try (Statement sql = context.getConnection().createStatement()) {
            sql.execute("ALTER TABLE workspace_keys ADD COLUMN budget_nanos BIGINT");
            sql.execute("ALTER TABLE workspace_keys ADD COLUMN budget_period VARCHAR(8)");
        }
    }
}
