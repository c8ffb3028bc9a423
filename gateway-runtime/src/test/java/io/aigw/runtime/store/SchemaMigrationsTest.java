package io.aigw.runtime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.LocalPostgres;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.flywaydb.core.api.exception.FlywayValidateException;
import org.flywaydb.core.api.migration.BaseJavaMigration;
import org.flywaydb.core.api.migration.Context;
import org.flywaydb.core.api.migration.JavaMigration;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.postgresql.ds.PGSimpleDataSource;
import org.sqlite.SQLiteDataSource;

/**
 * The schema at open: Flyway migrates a database that lacks a migration; a database whose history
 * lists every migration is left alone, without starting Flyway. Each test runs on a new SQLite file
 * and on a new PostgreSQL database (skipped on a laptop without PostgreSQL, failed in CI).
 */
public final class SchemaMigrationsTest {
    private static final List<JavaMigration> WITH_THE_NEXT_ONE = Stream.concat(
            SchemaMigrations.ALL.stream(), Stream.of(new V1000__AddNotes())).toList();
    /** The versions of the shipped migrations, oldest first, as the schema history lists them. */
    private static final List<String> SHIPPED = SchemaMigrations.ALL.stream()
            .map(migration -> migration.getVersion().getVersion()).toList();

    @TempDir
    Path folder;

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aNewDatabaseIsMigratedByFlyway(String kind) throws Exception {
        try (Database database = Database.create(kind, folder)) {
            assertTrue(SchemaMigrations.bringUpToDate(database.source(), SchemaMigrations.ALL), "Flyway ran");

            assertEquals(SHIPPED, database.appliedVersions());
            assertEquals(List.of("0"), database.column("SELECT COUNT(*) FROM workspace_keys"));
            assertTrue(SchemaMigrations.isUpToDate(database.source(), SchemaMigrations.ALL));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aDatabaseWithEveryMigrationIsLeftAloneWithoutEvenAValidationByFlyway(String kind) throws Exception {
        try (Database database = Database.create(kind, folder)) {
            SchemaMigrations.bringUpToDate(database.source(), SchemaMigrations.ALL);
            // The probe: Flyway refuses this history, whose description of V1 no longer matches the code's.
            database.execute("UPDATE flyway_schema_history SET description = 'Edited by hand'");
            assertThrows(FlywayValidateException.class,
                    () -> SchemaMigrations.flyway(database.source(), SchemaMigrations.ALL).migrate());

            assertFalse(SchemaMigrations.bringUpToDate(database.source(), SchemaMigrations.ALL), "Flyway ran");

            assertEquals(SHIPPED, database.appliedVersions());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aDatabaseOneMigrationBehindTheCodeIsMigratedByFlyway(String kind) throws Exception {
        try (Database database = Database.create(kind, folder)) {
            SchemaMigrations.bringUpToDate(database.source(), SchemaMigrations.ALL);
            assertFalse(SchemaMigrations.isUpToDate(database.source(), WITH_THE_NEXT_ONE));

            assertTrue(SchemaMigrations.bringUpToDate(database.source(), WITH_THE_NEXT_ONE), "Flyway ran");

            assertEquals(WITH_THE_NEXT_ONE.stream().map(migration -> migration.getVersion().getVersion()).toList(),
                    database.appliedVersions());
            database.execute("INSERT INTO notes (text) VALUES ('the table V1000 makes')");
            assertFalse(SchemaMigrations.bringUpToDate(database.source(), WITH_THE_NEXT_ONE), "Flyway ran again");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aHistoryWithAFailedMigrationIsLeftToFlyway(String kind) throws Exception {
        try (Database database = Database.create(kind, folder)) {
            SchemaMigrations.bringUpToDate(database.source(), WITH_THE_NEXT_ONE);
            database.execute("UPDATE flyway_schema_history SET success = FALSE WHERE version = '1000'");

            assertFalse(SchemaMigrations.isUpToDate(database.source(), WITH_THE_NEXT_ONE));
            assertFalse(SchemaMigrations.isUpToDate(database.source(), SchemaMigrations.ALL));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aDatabaseWithTablesButNoHistoryIsLeftToFlyway(String kind) throws Exception {
        try (Database database = Database.create(kind, folder)) {
            database.execute("CREATE TABLE someone_elses (id INTEGER)");

            assertFalse(SchemaMigrations.isUpToDate(database.source(), SchemaMigrations.ALL));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aVersionOneDatabaseInUseGainsCostsAndADailyRollupOfTheRecordsItHad(String kind) throws Exception {
        try (Database database = Database.create(kind, folder)) {
            SchemaMigrations.bringUpToDate(database.source(), List.of(new V1__WorkspaceKeysAndUsage()));
            database.execute("INSERT INTO workspace_keys (id, name, key_hash, admin, created_at)"
                    + " VALUES ('key_1', 'billing', '" + "a".repeat(64) + "', FALSE, 1)");
            // Two records of key_1 on 2026-11-25 (one with no usage reported), one on the next day, and
            // one the gateway answered itself (no provider).
            database.execute("INSERT INTO usage_records VALUES"
                    + " (1764072000000, 'key_1', 'openai/gpt-5', 'openai', 'gpt-5', 200, 10, 5, 15, 900, 400, 0),"
                    + " (1764072001000, 'key_1', 'openai/gpt-5', 'openai', 'gpt-5', 499, -1, -1, -1, 900, -1, 0),"
                    + " (1764158400000, 'key_1', 'openai/gpt-5', 'openai', 'gpt-5', 200, 7, 3, 10, 800, 300, 0),"
                    + " (1764072002000, 'master', 'xai/grok-4', NULL, NULL, 502, -1, -1, -1, 100, -1, 0)");

            assertTrue(SchemaMigrations.bringUpToDate(database.source(), SchemaMigrations.ALL), "Flyway ran");

            assertEquals(SHIPPED, database.appliedVersions());
            assertEquals(List.of("4 0 null"), database.column("SELECT COUNT(*) || ' ' || MIN(cost_basis) || ' '"
                    + " || COALESCE(CAST(MAX(cost_nanos) AS VARCHAR(20)), 'null') FROM usage_records"));
            assertEquals(List.of(
                    "20417 key_1 openai gpt-5 2 10 5 15 0 0 2 0",
                    "20417 master   1 0 0 0 0 0 1 0",
                    "20418 key_1 openai gpt-5 1 7 3 10 0 0 1 0"), database.column("SELECT day || ' ' || key_id || ' '"
                    + " || provider || ' ' || model || ' ' || requests || ' ' || prompt_tokens || ' ' || completion_tokens"
                    + " || ' ' || total_tokens || ' ' || cost_nanos || ' ' || costed || ' ' || unknown_cost || ' '"
                    + " || estimated_cost FROM usage_daily ORDER BY day, key_id"));
            assertEquals(List.of("0"), database.column("SELECT COUNT(*) FROM price_tables"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aVersionTwoDatabaseKeepsItsCostsRollupAndPriceTablesThroughTheLaterMigrations(String kind) throws Exception {
        try (Database database = Database.create(kind, folder)) {
            SchemaMigrations.bringUpToDate(database.source(), List.of(new V1__WorkspaceKeysAndUsage(),
                    new V2__UsageCostAndDailyRollup()));
            database.execute("INSERT INTO workspace_keys (id, name, key_hash, admin, created_at)"
                    + " VALUES ('key_1', 'billing', '" + "a".repeat(64) + "', FALSE, 1)");
            // A priced record, an estimated one, a failed attempt that was billed, and one of unknown cost.
            database.execute("INSERT INTO usage_records (recorded_at, key_id, requested_model, provider,"
                    + " upstream_model, status, prompt_tokens, completion_tokens, total_tokens, latency_micros,"
                    + " first_byte_micros, fallbacks, cost_nanos, cost_basis, price_version, failed_attempt) VALUES"
                    + " (1795608000000, 'key_1', 'openai/gpt-5', 'openai', 'gpt-5', 200, 10, 5, 15, 900, 400, 0,"
                    + " 62500, 2, 'a15116982ecb', FALSE),"
                    + " (1795608001000, 'key_1', 'openai/gpt-5', 'openai', 'gpt-5', 499, 3, 1, 4, 900, 400, 0,"
                    + " 13750, 3, 'a15116982ecb', FALSE),"
                    + " (1795608002000, 'key_1', 'gateway/auto', 'openai', 'gpt-5', 503, 30, 0, 30, 0, -1, 0,"
                    + " 37500, 2, 'a15116982ecb', TRUE),"
                    + " (1795608003000, 'key_1', 'xai/grok-9', 'xai', 'grok-9', 200, 7, 3, 10, 800, 300, 0,"
                    + " NULL, 0, NULL, FALSE)");
            database.execute("INSERT INTO usage_daily (day, key_id, provider, model, requests, prompt_tokens,"
                    + " completion_tokens, total_tokens, cost_nanos, costed, unknown_cost, estimated_cost) VALUES"
                    + " (20782, 'key_1', 'openai', 'gpt-5', 2, 43, 6, 49, 113750, 3, 0, 1),"
                    + " (20782, 'key_1', 'xai', 'grok-9', 1, 7, 3, 10, 0, 0, 1, 0)");
            database.execute("INSERT INTO price_tables (version, canonical, first_used_at)"
                    + " VALUES ('a15116982ecb', '{\"openai\":{}}', 1795608000000)");
            List<String> records = database.column(RECORDS);
            List<String> rollup = database.column(ROLLUP);

            assertTrue(SchemaMigrations.bringUpToDate(database.source(), SchemaMigrations.ALL), "Flyway ran");

            assertEquals(SHIPPED, database.appliedVersions());
            assertEquals(4, records.size());
            assertEquals(records, database.column(RECORDS));
            assertEquals(rollup, database.column(ROLLUP));
            assertEquals(List.of("a15116982ecb {\"openai\":{}}"),
                    database.column("SELECT version || ' ' || canonical FROM price_tables"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aVersionFourDatabaseKeepsItsRecordsAndRollupAsChatCompletionsAndTheRollupTakesAnotherEndpointBeside(
            String kind) throws Exception {
        try (Database database = Database.create(kind, folder)) {
            SchemaMigrations.bringUpToDate(database.source(), SchemaMigrations.ALL.subList(0, 4));
            database.execute("INSERT INTO usage_records (recorded_at, key_id, requested_model, provider,"
                    + " upstream_model, status, prompt_tokens, completion_tokens, total_tokens, latency_micros,"
                    + " first_byte_micros, fallbacks, cost_nanos, cost_basis, price_version, failed_attempt) VALUES"
                    + " (1795608000000, 'key_1', 'openai/gpt-5', 'openai', 'gpt-5', 200, 10, 5, 15, 900, 400, 0,"
                    + " 62500, 2, 'a15116982ecb', FALSE)");
            database.execute("INSERT INTO usage_daily (day, key_id, provider, model, requests, prompt_tokens,"
                    + " completion_tokens, total_tokens, cost_nanos, costed, unknown_cost, estimated_cost) VALUES"
                    + " (20782, 'key_1', 'openai', 'gpt-5', 1, 10, 5, 15, 62500, 1, 0, 0)");
            List<String> rollup = database.column(ROLLUP);

            assertTrue(SchemaMigrations.bringUpToDate(database.source(), SchemaMigrations.ALL), "Flyway ran");

            assertEquals(SHIPPED, database.appliedVersions());
            assertEquals(List.of("chat_completions"), database.column("SELECT endpoint FROM usage_records"));
            assertEquals(rollup, database.column(ROLLUP));
            assertEquals(List.of("chat_completions"), database.column("SELECT endpoint FROM usage_daily"));
            // The same key, day and model on another endpoint is a row of its own.
            database.execute("INSERT INTO usage_daily (day, key_id, provider, model, endpoint, requests,"
                    + " prompt_tokens, completion_tokens, total_tokens, cost_nanos, costed, unknown_cost,"
                    + " estimated_cost) VALUES (20782, 'key_1', 'openai', 'gpt-5', 'embeddings', 1, 8, 0, 8, 16, 1,"
                    + " 0, 0)");
            assertEquals(List.of("chat_completions 15", "embeddings 8"), database.column("SELECT endpoint || ' ' ||"
                    + " total_tokens FROM usage_daily ORDER BY endpoint"));
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sqlite", "postgresql"})
    void aVersionEightDatabaseKeepsItsRollupUnderNoUpstreamKeyAndTheRollupTakesAKeysRowsBeside(String kind)
            throws Exception {
        try (Database database = Database.create(kind, folder)) {
            SchemaMigrations.bringUpToDate(database.source(), SchemaMigrations.ALL.subList(0, 8));
            database.execute("INSERT INTO usage_daily (day, key_id, provider, model, endpoint, requests, prompt_tokens,"
                    + " completion_tokens, total_tokens, cost_nanos, costed, unknown_cost, estimated_cost) VALUES"
                    + " (20782, 'key_1', 'openai', 'gpt-5', 'chat_completions', 3, 10, 5, 15, 62500, 3, 0, 0),"
                    + " (20782, 'key_1', 'openai', 'gpt-5', 'embeddings', 1, 8, 0, 8, 16, 1, 0, 0)");
            List<String> rollup = database.column(ROLLUP);

            assertTrue(SchemaMigrations.bringUpToDate(database.source(), SchemaMigrations.ALL), "Flyway ran");

            assertEquals(SHIPPED, database.appliedVersions());
            assertEquals(rollup, database.column(ROLLUP));
            assertEquals(List.of("", ""), database.column("SELECT upstream_key FROM usage_daily"));
            // The same key, day, model and endpoint with an upstream key is a row of its own.
            database.execute("INSERT INTO usage_daily (day, key_id, provider, model, endpoint, upstream_key, requests,"
                    + " prompt_tokens, completion_tokens, total_tokens, cost_nanos, costed, unknown_cost,"
                    + " estimated_cost) VALUES (20782, 'key_1', 'openai', 'gpt-5', 'chat_completions', 'team-a', 1, 4,"
                    + " 1, 5, 100, 1, 0, 0)");
            assertEquals(List.of("chat_completions  15", "chat_completions team-a 5", "embeddings  8"),
                    database.column("SELECT endpoint || ' ' || upstream_key || ' ' || total_tokens FROM usage_daily"
                            + " ORDER BY endpoint, upstream_key"));
        }
    }

    private static final String RECORDS = "SELECT recorded_at || ' ' || key_id || ' ' || provider || ' ' || status"
            + " || ' ' || total_tokens || ' ' || COALESCE(CAST(cost_nanos AS VARCHAR(20)), 'null') || ' '"
            + " || cost_basis || ' ' || COALESCE(price_version, 'null') || ' '"
            + " || CASE WHEN failed_attempt THEN 'failed' ELSE 'request' END FROM usage_records ORDER BY recorded_at";
    private static final String ROLLUP = "SELECT day || ' ' || key_id || ' ' || provider || ' ' || model || ' '"
            + " || requests || ' ' || total_tokens || ' ' || cost_nanos || ' ' || costed || ' ' || unknown_cost"
            + " || ' ' || estimated_cost FROM usage_daily ORDER BY day, key_id, provider, model";

    /** A migration after the shipped ones, as the next schema change will be. */
    public static final class V1000__AddNotes extends BaseJavaMigration {
        @Override
        public void migrate(Context context) throws Exception {
            try (Statement sql = context.getConnection().createStatement()) {
                sql.execute("CREATE TABLE notes (text VARCHAR(100) NOT NULL)");
            }
        }
    }

    /** A new, empty database of one kind, with plain SQL to look into it. */
    private record Database(DataSource source, AutoCloseable drop) implements AutoCloseable {

        static Database create(String kind, Path folder) {
            if (kind.equals("sqlite")) {
                SQLiteDataSource sqlite = new SQLiteDataSource();
                sqlite.setUrl("jdbc:sqlite:" + folder.resolve("gateway.db"));
                return new Database(sqlite, () -> { });
            }
            LocalPostgres postgres = LocalPostgres.createDatabase();
            PGSimpleDataSource source = new PGSimpleDataSource();
            source.setURL(postgres.url());
            source.setUser(postgres.user());
            return new Database(source, postgres);
        }

        void execute(String statement) throws SQLException {
            try (Connection connection = source.getConnection(); Statement sql = connection.createStatement()) {
                sql.execute(statement);
            }
        }

        List<String> column(String query) throws SQLException {
            try (Connection connection = source.getConnection(); Statement sql = connection.createStatement();
                 ResultSet rows = sql.executeQuery(query)) {
                List<String> values = new ArrayList<>();
                while (rows.next()) {
                    values.add(rows.getString(1));
                }
                return values;
            }
        }

        List<String> appliedVersions() throws SQLException {
            return column("SELECT version FROM flyway_schema_history WHERE success ORDER BY installed_rank");
        }

        @Override
        public void close() throws Exception {
            drop.close();
        }
    }
}
