package io.aigw.runtime.store;

import java.sql.Statement;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * The endpoint each usage record was asked on ({@code chat_completions}, {@code embeddings}...), and
 * the daily rollup kept per endpoint too, so that a report can group by it. Every record and rollup
 * row before it was a chat completion. The rollup's primary key gains the column, which neither
 * SQLite nor PostgreSQL changes in place the same way: the table is made anew and its rows copied.
 */
public final class V5__UsageEndpoint extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws Exception {
        try (Statement sql = context.getConnection().createStatement()) {
            sql.execute("ALTER TABLE usage_records ADD COLUMN endpoint VARCHAR(40) NOT NULL"
                    + " DEFAULT 'chat_completions'");
            sql.execute("""
                    CREATE TABLE usage_daily_by_endpoint (
                        day INTEGER NOT NULL,
                        key_id VARCHAR(40) NOT NULL,
                        provider VARCHAR(100) NOT NULL,
                        model VARCHAR(300) NOT NULL,
                        endpoint VARCHAR(40) NOT NULL,
                        requests BIGINT NOT NULL,
                        prompt_tokens BIGINT NOT NULL,
                        completion_tokens BIGINT NOT NULL,
                        total_tokens BIGINT NOT NULL,
                        cost_nanos BIGINT NOT NULL,
                        costed BIGINT NOT NULL,
                        unknown_cost BIGINT NOT NULL,
                        estimated_cost BIGINT NOT NULL,
                        PRIMARY KEY (day, key_id, provider, model, endpoint)
                    )""");
            sql.execute("""
                    INSERT INTO usage_daily_by_endpoint (day, key_id, provider, model, endpoint, requests,
                        prompt_tokens, completion_tokens, total_tokens, cost_nanos, costed, unknown_cost,
                        estimated_cost)
                    SELECT day, key_id, provider, model, 'chat_completions', requests, prompt_tokens,
                        completion_tokens, total_tokens, cost_nanos, costed, unknown_cost, estimated_cost
                    FROM usage_daily""");
            sql.execute("DROP TABLE usage_daily");
            sql.execute("ALTER TABLE usage_daily_by_endpoint RENAME TO usage_daily");
            sql.execute("CREATE INDEX usage_daily_by_key ON usage_daily (key_id, day)");
        }
    }
}
