#!/usr/bin/env bash
# The usage report at scale: 10 million usage records (90 days, 200 keys, 12 models) in a PostgreSQL
# database of its own, summed into the daily rollup the gateway keeps, then a month's report per key
# (the query GET /admin/v1/usage?group_by=key runs) timed five times. The database is dropped at the end.
# Needs psql and a PostgreSQL at PGHOST:PGPORT (127.0.0.1:5432, user postgres) that may create databases.
set -euo pipefail
export PGHOST="${PGHOST:-127.0.0.1}" PGPORT="${PGPORT:-5432}" PGUSER="${PGUSER:-postgres}"
ROWS="${ROWS:-10000000}"
DB="aigw_usage_bench_$$"
psql -q -d postgres -c "CREATE DATABASE $DB"
trap 'psql -q -d postgres -c "DROP DATABASE IF EXISTS $DB WITH (FORCE)"' EXIT
run() { psql -q -v ON_ERROR_STOP=1 -d "$DB" "$@"; }

# The tables as migrations V1 and V2 make them (store/V1__WorkspaceKeysAndUsage, V2__UsageCostAndDailyRollup).
run <<SQL
CREATE TABLE workspace_keys (id VARCHAR(40) PRIMARY KEY, name VARCHAR(200) NOT NULL, key_hash CHAR(64) NOT NULL UNIQUE,
    admin BOOLEAN NOT NULL, created_at BIGINT NOT NULL, revoked_at BIGINT);
CREATE TABLE usage_records (recorded_at BIGINT NOT NULL, key_id VARCHAR(40) NOT NULL, requested_model VARCHAR(300) NOT NULL,
    provider VARCHAR(100), upstream_model VARCHAR(300), status INTEGER NOT NULL, prompt_tokens BIGINT NOT NULL,
    completion_tokens BIGINT NOT NULL, total_tokens BIGINT NOT NULL, latency_micros BIGINT NOT NULL,
    first_byte_micros BIGINT NOT NULL, fallbacks INTEGER NOT NULL, cost_nanos BIGINT, cost_basis SMALLINT NOT NULL DEFAULT 0,
    price_version CHAR(12), failed_attempt BOOLEAN NOT NULL DEFAULT FALSE);
CREATE INDEX usage_records_by_time ON usage_records (recorded_at);
CREATE TABLE usage_daily (day INTEGER NOT NULL, key_id VARCHAR(40) NOT NULL, provider VARCHAR(100) NOT NULL,
    model VARCHAR(300) NOT NULL, requests BIGINT NOT NULL, prompt_tokens BIGINT NOT NULL, completion_tokens BIGINT NOT NULL,
    total_tokens BIGINT NOT NULL, cost_nanos BIGINT NOT NULL, costed BIGINT NOT NULL, unknown_cost BIGINT NOT NULL,
    estimated_cost BIGINT NOT NULL, PRIMARY KEY (day, key_id, provider, model));
CREATE INDEX usage_daily_by_key ON usage_daily (key_id, day);
INSERT INTO workspace_keys SELECT 'key_' || k, 'app-' || k, md5(k::text) || md5(k::text), FALSE, 0 FROM generate_series(1, 200) k;
\timing on
INSERT INTO usage_records
SELECT 1756684800000 + (i::bigint * 7776000000 / $ROWS), 'key_' || (1 + i % 200), 'openai/m' || (i % 12), 'openai',
       'm' || (i % 12), 200, 500 + i % 700, 100 + i % 300, 600 + i % 700 + i % 300, 900000, 300000, 0,
       (500 + i % 700) * 1250 + (100 + i % 300) * 10000, 2, 'a15116982ecb', FALSE
FROM generate_series(0, $ROWS - 1) i;
INSERT INTO usage_daily
SELECT recorded_at / 86400000, key_id, provider, upstream_model, COUNT(*), SUM(prompt_tokens), SUM(completion_tokens),
       SUM(total_tokens), SUM(cost_nanos), COUNT(cost_nanos), COUNT(*) - COUNT(cost_nanos), 0
FROM usage_records GROUP BY 1, 2, 3, 4;
ANALYZE;
SQL
echo "usage_records: $(run -tAc 'SELECT COUNT(*) FROM usage_records'), usage_daily: $(run -tAc 'SELECT COUNT(*) FROM usage_daily')"

# A month (2025-10-01 .. 2025-10-31 is days 20362 .. 20392), per key, as UsageReports builds it.
QUERY="SELECT g.*, k.name AS key_name FROM (SELECT key_id, SUM(requests) AS requests, SUM(prompt_tokens) AS prompt_tokens,
 SUM(completion_tokens) AS completion_tokens, SUM(total_tokens) AS total_tokens, SUM(cost_nanos) AS cost_nanos,
 SUM(costed) AS costed, SUM(unknown_cost) AS unknown_cost, SUM(estimated_cost) AS estimated_cost FROM usage_daily
 WHERE day >= 20362 AND day <= 20392 GROUP BY key_id) g LEFT JOIN workspace_keys k ON k.id = g.key_id
 ORDER BY g.cost_nanos DESC, g.total_tokens DESC, g.key_id"
for i in 1 2 3 4 5; do
  run -c '\timing on' -c "$QUERY" | grep '^Time:'
done
