package io.aigw.runtime.store;

import java.sql.Statement;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * The trace a usage record's request is part of ({@code trace_id}, 32 hex digits), null when
 * tracing was off: an operator goes from a record to its trace.
 */
public final class V7__UsageTraceId extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws Exception {
        try (Statement sql = context.getConnection().createStatement()) {
            sql.execute("ALTER TABLE usage_records ADD COLUMN trace_id VARCHAR(32)");
        }
    }
}
