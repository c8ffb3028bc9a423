package io.aigw.runtime.store;

import java.sql.Statement;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * The daily rollup kept per upstream key too, so that a report can group by it. Its rows so far
 * sum calls of every key together: they are kept under no key ({@code ''}), as are requests no
 * provider was called for. The primary key gains the column, so the table is made anew and its
 * rows copied, as {@link V5__UsageEndpoint} did.
 */
public final class V9__UpstreamKeyOfDailyUsage extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws Exception {
        try (Statement sql = context.getConnection().createStatement()) {
            sql.execute("""
                    CREATE TABLE usage_daily_by_upstream_key (
                        day INTEGER NOT NULL,
                        key_id VARCHAR(40) NOT NULL,
                        provider VARCHAR(100) NOT NULL,
                        model VARCHAR(300) NOT NULL,
                        endpoint VARCHAR(40) NOT NULL,
                        upstream_key VARCHAR(64) NOT NULL DEFAULT '',
                        requests BIGINT NOT NULL,
                        prompt_tokens BIGINT NOT NULL,
                        completion_tokens BIGINT NOT NULL,
                        total_tokens BIGINT NOT NULL,
                        cost_nanos BIGINT NOT NULL,
                        costed BIGINT NOT NULL,
                        unknown_cost BIGINT NOT NULL,
                        estimated_cost BIGINT NOT NULL,
                        PRIMARY KEY (day, key_id, provider, model, endpoint, upstream_key)
                    )""");
            sql.execute("""
                    INSERT INTO usage_daily_by_upstream_key (day, key_id, provider, model, endpoint, upstream_key,
                        requests, prompt_tokens, completion_tokens, total_tokens, cost_nanos, costed, unknown_cost,
                        estimated_cost)
                    SELECT day, key_id, provider, model, endpoint, '', requests, prompt_tokens, completion_tokens,
                        total_tokens, cost_nanos, costed, unknown_cost, estimated_cost
                    FROM usage_daily""");
            sql.execute("DROP TABLE usage_daily");
            sql.execute("ALTER TABLE usage_daily_by_upstream_key RENAME TO usage_daily");
            sql.execute("CREATE INDEX usage_daily_by_key ON usage_daily (key_id, day)");
        }
    }
}
