package io.aigw.runtime.store;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.Gateway;
import io.aigw.runtime.cli.KeysCommand;
import io.aigw.runtime.config.DatabaseConfig;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.plugin.PluginDiscovery;
import io.aigw.runtime.testing.KeyRows;
import io.aigw.runtime.testing.KeysApi;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key's text is shown once and kept nowhere: the SQLite file (with its WAL and shared-memory
 * files) holds only the SHA-256 of each key, whichever way the key was made.
 */
public final class NoPlaintextKeyTest {
    private static final String MASTER = "sk-gw-master-key-in-configuration-only";

    @TempDir
    Path folder;

    @Test
    void neitherTheDatabaseFilesNorAnyColumnHoldAKeyOnlyItsSha256() throws Exception {
        List<String> keys = new ArrayList<>();
        try (Gateway firstStart = start(Map.of())) {
            String admin = firstStart.generatedMasterKey().orElseThrow();
            keys.add(admin);
            keys.add(new KeysApi(firstStart.port(), admin).createKey("made-with-the-first-admin-key").getString("key"));
            assertNoKeyIn(databaseFiles(), keys);  // while the gateway runs, its writes may sit in the WAL
        }
        try (JdbcStore store = JdbcStore.open(DatabaseConfig.read(settings(Map.of())))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int code = new KeysCommand(store, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                    .run(List.of("create", "--name", "made-on-the-command-line"));
            assertEquals(KeysCommand.OK, code);
            keys.add(out.toString(StandardCharsets.UTF_8).strip());
        }
        try (Gateway withMaster = start(Map.of("gateway.master-key", MASTER))) {
            keys.add(new KeysApi(withMaster.port(), MASTER).createKey("made-with-the-master-key").getString("key"));
        }
        keys.forEach(key -> assertTrue(key.matches(KeysApi.KEY_PATTERN), key));

        String files = databaseFiles();
        assertNoKeyIn(files, keys);
        assertNoKeyIn(files, List.of(MASTER));
        for (String key : keys) {
            assertTrue(files.contains(KeysApi.sha256Hex(key)), "the files hold the hash (so they were read)");
        }
        assertFalse(files.contains(KeysApi.sha256Hex(MASTER)), "the master key is not stored, not even hashed");

        try (Connection connection = DriverManager.getConnection(databaseUrl())) {
            String everyColumn = KeyRows.everyColumn(connection);
            assertNoKeyIn(everyColumn, keys);
            List<KeyRows> rows = KeyRows.read(connection);
            assertEquals(4, rows.size(), rows.toString());
            List<String> names = List.of("admin", "made-with-the-first-admin-key", "made-on-the-command-line",
                    "made-with-the-master-key");
            for (int i = 0; i < keys.size(); i++) {
                String hash = KeysApi.sha256Hex(keys.get(i));
                KeyRows row = rows.stream().filter(candidate -> candidate.keyHash().equals(hash)).findFirst()
                        .orElseThrow(() -> new AssertionError("no row has the SHA-256 of a key: " + rows));
                assertEquals(names.get(i), row.name());
                assertEquals(i == 0, row.admin(), row.name());
            }
        }
    }

    /**
     * Not the key, not its secret part, not its random bytes in any common spelling; a test that
     * only looked for the whole key would miss a store that dropped the prefix or kept the bytes.
     */
    private static void assertNoKeyIn(String haystack, List<String> keys) {
        for (String key : keys) {
            String secret = key.substring("sk-gw-".length());
            assertFalse(haystack.contains(secret), "found the text of " + key);
            if (key.matches(KeysApi.KEY_PATTERN)) {
                byte[] random = Base64.getUrlDecoder().decode(secret);
                String hex = HexFormat.of().formatHex(random);
                assertFalse(haystack.contains(new String(random, StandardCharsets.ISO_8859_1)), "the key's bytes");
                assertFalse(haystack.toLowerCase().contains(hex), "the key's bytes in hex");
                assertFalse(haystack.contains(Base64.getEncoder().encodeToString(random)), "standard base64");
            }
        }
    }

    /** Every file of the database (the main file, -wal, -shm, -journal), as ISO-8859-1 so each byte is a char. */
    private String databaseFiles() throws Exception {
        try (var files = Files.list(folder)) {
            List<Path> database = files.filter(file -> file.getFileName().toString().startsWith("gateway.db")).toList();
            assertTrue(database.contains(folder.resolve("gateway.db")), database.toString());
            StringBuilder all = new StringBuilder();
            for (Path file : database) {
                all.append(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1));
            }
            return all.toString();
        }
    }

    private Gateway start(Map<String, String> config) {
        return Gateway.start(settings(config), PluginDiscovery.discover(), Optional.empty());
    }

    private Settings settings(Map<String, String> config) {
        Map<String, String> all = new HashMap<>(Map.of(
                "gateway.host", "127.0.0.1",
                "gateway.port", "0",
                "gateway.access-log", "off",
                "gateway.database.url", databaseUrl()));
        all.putAll(config);
        return new Settings(Config.just(ConfigSources.create(all)), Map.of());
    }

    private String databaseUrl() {
        return "jdbc:sqlite:" + folder.resolve("gateway.db");
    }
}
