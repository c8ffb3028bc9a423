package io.aigw.runtime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A restart on the database an earlier start made: the schema is current, so Flyway is not asked. */
public final class RestartTest {
    @TempDir
    Path folder;

    @Test
    void aRestartOnAnUpToDateDatabaseLeavesFlywayOutAndServesTheKeysMadeBefore() throws Exception {
        String url = "jdbc:sqlite:" + folder.resolve("gateway.db");
        Map<String, String> config = Map.of("gateway.database.url", url);
        String key;
        try (TestGateway first = TestGateway.start(config, Map.of())) {
            key = KeysApi.of(first).createKey("made-before-the-restart").getString("key");
        }
        // Flyway refuses this history (SchemaMigrationsTest shows it), so a start that asked it would fail.
        try (Connection connection = DriverManager.getConnection(url); Statement sql = connection.createStatement()) {
            sql.execute("UPDATE flyway_schema_history SET description = 'Edited by hand'");
        }

        try (TestGateway second = TestGateway.start(config, Map.of())) {
            KeysApi api = KeysApi.of(second);
            assertEquals(200, api.models(key).statusCode());
            assertEquals(200, api.models(api.createKey("made-after-the-restart").getString("key")).statusCode());
        }
    }
}
