package io.aigw.runtime.store;

import java.sql.Statement;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * The name of the upstream key each usage record's call was made with ({@link UsageRecord#upstreamKey()}),
 * null for records from before pools and for requests no provider was called for: spend per
 * upstream key is then a query away.
 */
public final class V8__UpstreamKeyOfUsage extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws Exception {
        try (Statement sql = context.getConnection().createStatement()) {
            sql.execute("ALTER TABLE usage_records ADD COLUMN upstream_key VARCHAR(64)");
        }
    }
}
