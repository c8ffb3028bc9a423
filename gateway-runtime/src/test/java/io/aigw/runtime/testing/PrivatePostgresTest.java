package io.aigw.runtime.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** The private cluster answers, stops and starts again; without PostgreSQL's programs it skips, or fails in CI. */
public final class PrivatePostgresTest {
    @TempDir
    Path noInstallation;

    @Test
    void theClusterServesStopsAndServesAgainOnTheSamePort() throws Exception {
        try (PrivatePostgres cluster = PrivatePostgres.start()) {
            assertEquals(1, selectOne(cluster));

            cluster.stopServer();
            assertThrows(SQLException.class, () -> selectOne(cluster));

            cluster.startServer();
            assertEquals(1, selectOne(cluster));
        }
    }

    @Test
    void withoutThePostgresProgramsOutsideCiTheTestIsSkippedWithTheReason() {
        TestAbortedException skipped = assertThrows(TestAbortedException.class,
                () -> PrivatePostgres.start(noInstallation, Map.of()));

        assertEquals("No PostgreSQL programs (initdb, pg_ctl) in " + noInstallation
                + "/<version>/bin to run a private cluster", skipped.getMessage());
    }

    @Test
    void withoutThePostgresProgramsInCiTheTestFails() {
        AssertionFailedError failed = assertThrows(AssertionFailedError.class,
                () -> PrivatePostgres.start(noInstallation, Map.of("CI", "true")));

        assertEquals("No PostgreSQL programs (initdb, pg_ctl) in " + noInstallation + "/<version>/bin to run a"
                + " private cluster (CI=true, where PostgreSQL must run: see .ci/run)", failed.getMessage());
    }

    private static int selectOne(PrivatePostgres cluster) throws SQLException {
        try (Connection connection = cluster.connect();
             ResultSet rows = connection.createStatement().executeQuery("SELECT 1")) {
            rows.next();
            return rows.getInt(1);
        }
    }
}
