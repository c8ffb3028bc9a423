package io.aigw.runtime.store;

import java.sql.Statement;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;

/**
 * Spend: each usage record's cost, the price tables that priced them, and a daily rollup that the
 * usage report reads instead of the records. Runs forward from {@link V1__WorkspaceKeysAndUsage}
 * on a database in use: the records it finds keep an unknown cost (they were never priced) and are
 * summed into the rollup, so the report covers them too.
 *
 * <p>Rows hold ids and numbers: a record names its price table by version, and
 * {@code price_tables} keeps each table's text once. {@code cost_basis} is
 * {@link io.aigw.runtime.pricing.Cost.Basis#code()}; a day is counted in days since 1970-01-01 UTC.
 */
public final class V2__UsageCostAndDailyRollup extends BaseJavaMigration {

    @Override
    public void migrate(Context context) throws Exception {
        try (Statement sql = context.getConnection().createStatement()) {
            sql.execute("ALTER TABLE usage_records ADD COLUMN cost_nanos BIGINT");
            sql.execute("ALTER TABLE usage_records ADD COLUMN cost_basis SMALLINT NOT NULL DEFAULT 0");
            sql.execute("ALTER TABLE usage_records ADD COLUMN price_version CHAR(12)");
            sql.execute("ALTER TABLE usage_records ADD COLUMN failed_attempt BOOLEAN NOT NULL DEFAULT FALSE");
            sql.execute("""
                    CREATE TABLE price_tables (
                        version CHAR(12) PRIMARY KEY,
                        canonical TEXT NOT NULL,
                        first_used_at BIGINT NOT NULL
                    )""");
            sql.execute("""
                    CREATE TABLE usage_daily (
                        day INTEGER NOT NULL,
                        key_id VARCHAR(40) NOT NULL,
                        provider VARCHAR(100) NOT NULL,
                        model VARCHAR(300) NOT NULL,
                        requests BIGINT NOT NULL,
                        prompt_tokens BIGINT NOT NULL,
                        completion_tokens BIGINT NOT NULL,
                        total_tokens BIGINT NOT NULL,
                        cost_nanos BIGINT NOT NULL,
                        costed BIGINT NOT NULL,
                        unknown_cost BIGINT NOT NULL,
                        estimated_cost BIGINT NOT NULL,
                        PRIMARY KEY (day, key_id, provider, model)
                    )""");
            sql.execute("CREATE INDEX usage_daily_by_key ON usage_daily (key_id, day)");
            // The records so far: every one a request, none priced. A provider or model that is
            // null (the gateway answered itself) is '' here, a key the rollup's primary key can hold.
            sql.execute("""
                    INSERT INTO usage_daily (day, key_id, provider, model, requests, prompt_tokens,
                        completion_tokens, total_tokens, cost_nanos, costed, unknown_cost, estimated_cost)
                    SELECT recorded_at / 86400000, key_id, COALESCE(provider, ''), COALESCE(upstream_model, ''),
                        COUNT(*),
                        SUM(CASE WHEN prompt_tokens > 0 THEN prompt_tokens ELSE 0 END),
                        SUM(CASE WHEN completion_tokens > 0 THEN completion_tokens ELSE 0 END),
                        SUM(CASE WHEN total_tokens > 0 THEN total_tokens ELSE 0 END),
                        0, 0, COUNT(*), 0
                    FROM usage_records
                    GROUP BY recorded_at / 86400000, key_id, COALESCE(provider, ''), COALESCE(upstream_model, '')""");
        }
    }
}
