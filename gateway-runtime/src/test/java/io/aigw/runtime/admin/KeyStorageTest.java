package io.aigw.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.Gateway;
import io.aigw.runtime.auth.MasterKey;
import io.aigw.runtime.cli.KeysCommand;
import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.plugin.PluginDiscovery;
import io.aigw.runtime.store.JdbcStore;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Keys exist as hashes only; the first start makes an admin key once; the command line manages keys. */
public final class KeyStorageTest {
    @TempDir
    Path folder;

    @Test
    void theFirstStartOfAnEmptyStoreMakesOneAdminKeyAndLaterStartsMakeNone() throws Exception {
        String adminKey;
        try (Gateway first = start(Map.of())) {
            adminKey = first.generatedMasterKey().orElseThrow();
            assertTrue(adminKey.matches("sk-gw-[A-Za-z0-9_-]{43}"), adminKey);
            assertEquals(201, createKey(first.port(), adminKey, "made-by-admin"));
        }
        try (Gateway second = start(Map.of())) {
            assertEquals(Optional.empty(), second.generatedMasterKey());
            assertEquals(201, createKey(second.port(), adminKey, "still-admin"));
        }
    }

    @Test
    void aMasterKeyWithoutTheGatewayPrefixRefusesToStart() {
        ConfigurationException refused = assertThrows(ConfigurationException.class,
                () -> start(Map.of("gateway.master-key", "sk-live-0123456789abcdef0123")));

        assertTrue(refused.getMessage().startsWith("GATEWAY_MASTER_KEY must start with 'sk-gw-'"), refused.getMessage());
    }

    @Test
    void theDatabaseHoldsNoKeyOnlyItsHash() throws Exception {
        List<String> keys = new ArrayList<>();
        try (Gateway gateway = start(Map.of())) {
            keys.add(gateway.generatedMasterKey().orElseThrow());
        }
        try (JdbcStore store = JdbcStore.open(settings(Map.of()))) {
            for (String name : List.of("one", "two")) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                new KeysCommand(store, new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(
                        new ByteArrayOutputStream())).run(List.of("create", "--name", name));
                keys.add(out.toString(StandardCharsets.UTF_8).strip());
            }
        }

        byte[] file = Files.readAllBytes(folder.resolve("gateway.db"));
        String everyColumn = everyColumnOfTheKeysTable();
        for (String key : keys) {
            assertFalse(new String(file, StandardCharsets.ISO_8859_1).contains(key), "the database file holds a key");
            assertFalse(new String(file, StandardCharsets.ISO_8859_1).contains(key.substring(6)));
            assertFalse(everyColumn.contains(key.substring(6)), everyColumn);
            assertTrue(everyColumn.contains(MasterKey.hashHex(key)), "the key's SHA-256 must be what is stored");
        }
    }

    @Test
    void theCommandLineCreatesListsAndRevokesKeys() throws Exception {
        try (JdbcStore store = JdbcStore.open(settings(Map.of()))) {
            Output created = run(store, "create", "--name", "cli-app");
            assertEquals(KeysCommand.OK, created.code());
            List<String> lines = created.out().lines().toList();
            assertEquals(1, lines.size(), "the key alone on one line: " + created.out());
            String key = lines.get(0);
            assertTrue(key.matches("sk-gw-[A-Za-z0-9_-]{43}"), key);
            String id = created.err().replaceAll("(?s).*Created key (key_[0-9a-f]+).*", "$1");

            Output list = run(store, "list");
            assertTrue(list.out().contains(id) && list.out().contains("cli-app"), list.out());
            assertFalse(list.out().contains(key));

            try (Gateway gateway = start(Map.of("gateway.master-key", "sk-gw-master-0123456789abcdef"))) {
                assertEquals(200, models(gateway.port(), key));
                assertEquals(KeysCommand.OK, run(store, "revoke", id).code());
                Thread.sleep(50);
                assertEquals(401, modelsAfterCache(gateway.port(), key));
            }
            assertEquals(KeysCommand.NOT_FOUND, run(store, "revoke", "key_nope").code());
            assertEquals(KeysCommand.USAGE, run(store, "create").code());
            assertEquals(KeysCommand.USAGE, run(store, "explode").code());
            assertEquals(KeysCommand.USAGE, run(store).code());
        }
    }

    private Gateway start(Map<String, String> config) {
        return Gateway.start(settings(config), PluginDiscovery.discover(), Optional.empty());
    }

    private Settings settings(Map<String, String> config) {
        Map<String, String> all = new java.util.HashMap<>(Map.of(
                "gateway.host", "127.0.0.1", "gateway.port", "0", "gateway.access-log", "off",
                "gateway.keys.cache-ttl", "100ms",
                "gateway.database.url", "jdbc:sqlite:" + folder.resolve("gateway.db")));
        all.putAll(config);
        return new Settings(Config.just(ConfigSources.create(all)), Map.of());
    }

    private String everyColumnOfTheKeysTable() throws Exception {
        StringBuilder text = new StringBuilder();
        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + folder.resolve("gateway.db"));
             ResultSet rows = connection.createStatement().executeQuery("SELECT * FROM workspace_keys")) {
            int columns = rows.getMetaData().getColumnCount();
            while (rows.next()) {
                for (int i = 1; i <= columns; i++) {
                    text.append(rows.getString(i)).append(' ');
                }
                text.append('\n');
            }
        }
        return text.toString();
    }

    private record Output(int code, String out, String err) {
    }

    private static Output run(JdbcStore store, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = new KeysCommand(store, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)).run(List.of(args));
        return new Output(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static int createKey(int port, String adminKey, String name) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/admin/v1/keys")).header("Authorization", "Bearer " + adminKey)
                .POST(HttpRequest.BodyPublishers.ofString("{\"name\":\"" + name + "\"}")).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    private static int models(int port, String key) throws Exception {
        return HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                        + "/api/v1/models")).header("Authorization", "Bearer " + key).build(),
                HttpResponse.BodyHandlers.ofString()).statusCode();
    }

    /** A key revoked by another process is refused once this gateway's 100 ms key cache has expired. */
    private static int modelsAfterCache(int port, String key) throws Exception {
        Thread.sleep(200);
        return models(port, key);
    }
}
