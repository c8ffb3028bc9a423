package io.aigw.runtime.store;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationVersion;
import org.flywaydb.core.api.migration.JavaMigration;

/**
 * The schema's migrations, and Flyway to apply them. Starting Flyway costs a restart more than the
 * rest of opening the store, so the schema history is read first with plain SQL: when it already
 * lists every migration as applied, Flyway is left out. Anything else (a new database, a missing
 * migration, a failed one, a history that cannot be read) goes to Flyway, which migrates or says
 * what is wrong.
 */
final class SchemaMigrations {
    /**
     * Every migration, oldest first. Each one's version comes from its class name ({@code V1__...}),
     * the way Flyway reads it, so the latest version is never written down twice.
     */
    static final List<JavaMigration> ALL = List.of(new V1__WorkspaceKeysAndUsage(),
            new V2__UsageCostAndDailyRollup(), new V3__KeyPolicies(), new V4__KeyBudgets(), new V5__UsageEndpoint(),
            new V6__Responses(),
            new V7__UsageTraceId(), new V8__UpstreamKeyOfUsage(), new V9__UpstreamKeyOfDailyUsage());

    /** Flyway's default, named here so that the check and Flyway read the same table. */
    static final String HISTORY_TABLE = "flyway_schema_history";

    private SchemaMigrations() {
    }

    /**
     * Applies those of {@code migrations} the database lacks.
     *
     * @return whether Flyway ran; false when the schema history showed every migration applied
     */
    static boolean bringUpToDate(DataSource dataSource, List<JavaMigration> migrations) {
        if (isUpToDate(dataSource, migrations)) {
            return false;
        }
        flyway(dataSource, migrations).migrate();
        return true;
    }

    /** Flyway with {@code migrations}, given as objects rather than found by a class path scan. */
    static Flyway flyway(DataSource dataSource, List<JavaMigration> migrations) {
        return Flyway.configure(SchemaMigrations.class.getClassLoader())
                .dataSource(dataSource)
                .table(HISTORY_TABLE)
                .javaMigrations(migrations.toArray(JavaMigration[]::new))
                .locations(new String[0])
                .load();
    }

    /** Whether the schema history lists every one of {@code migrations} as applied, and no failure. */
    static boolean isUpToDate(DataSource dataSource, List<JavaMigration> migrations) {
        Set<MigrationVersion> applied = new HashSet<>();
        try (Connection connection = dataSource.getConnection();
             Statement sql = connection.createStatement();
             ResultSet rows = sql.executeQuery("SELECT version, success FROM " + HISTORY_TABLE)) {
            while (rows.next()) {
                String version = rows.getString(1);
                if (!rows.getBoolean(2)) {
                    return false;
                }
                if (version != null) {
                    applied.add(MigrationVersion.fromVersion(version));
                }
            }
        } catch (SQLException e) {
            // No history table: a new database, or one that Flyway has never seen.
            return false;
        }
        for (JavaMigration migration : migrations) {
            if (!applied.contains(migration.getVersion())) {
                return false;
            }
        }
        return true;
    }
}
