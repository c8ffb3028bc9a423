package io.aigw.runtime.admin;

import static io.aigw.runtime.testing.KeysApi.KEY_PATTERN;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.Gateway;
import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.plugin.PluginDiscovery;
import io.aigw.runtime.testing.KeyRows;
import io.aigw.runtime.testing.KeysApi;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Without {@code GATEWAY_MASTER_KEY}, the first start on an empty store makes an admin key named
 * {@code admin} and shows it once; later starts make none. A master key must look like a gateway key.
 */
public final class FirstStartTest {
    private static final String MASTER_KEY_REFUSED = "GATEWAY_MASTER_KEY must start with 'sk-gw-' and carry at"
            + " least 16 more characters; make one with: echo sk-gw-$(openssl rand -hex 24)";

    @TempDir
    Path folder;

    @Test
    void theFirstStartOnAnEmptyStoreWithoutAMasterKeyMakesAnAdminKeyThatCanUseTheAdminApi() throws Exception {
        try (Gateway gateway = start(Map.of(), Map.of())) {
            String adminKey = gateway.generatedMasterKey().orElseThrow();
            assertTrue(adminKey.matches(KEY_PATTERN), adminKey);
            KeysApi api = new KeysApi(gateway.port(), adminKey);

            String made = api.createKey("made-by-admin").getString("key");
            assertEquals(200, api.models(made).statusCode());
            assertEquals(200, api.models(adminKey).statusCode());
            List<KeyRows> rows = KeyRows.read(databaseUrl());
            assertEquals(2, rows.size(), rows.toString());
            KeyRows admin = rows.get(0);
            assertEquals(new KeyRows(admin.id(), "admin", KeysApi.sha256Hex(adminKey), true, admin.createdAt(),
                    Optional.empty()), admin);
            assertEquals("admin", api.listed(admin.id()).getString("name"));
        }
    }

    @Test
    void aSecondStartOnTheSameDatabaseMakesNoKeyAndTheFirstAdminKeyStillWorks() throws Exception {
        String adminKey;
        try (Gateway first = start(Map.of(), Map.of())) {
            adminKey = first.generatedMasterKey().orElseThrow();
        }
        List<KeyRows> afterFirst = KeyRows.read(databaseUrl());

        try (Gateway second = start(Map.of(), Map.of())) {
            assertEquals(Optional.empty(), second.generatedMasterKey());
            assertEquals(afterFirst, KeyRows.read(databaseUrl()), "no second admin key was stored");
            KeysApi api = new KeysApi(second.port(), adminKey);
            assertEquals(201, api.create("{\"name\":\"after-restart\"}").statusCode());
            assertEquals(200, api.list().statusCode());
        }
        try (Gateway third = start(Map.of(), Map.of())) {
            assertEquals(Optional.empty(), third.generatedMasterKey());
        }
        assertEquals(1, KeyRows.read(databaseUrl()).stream().filter(KeyRows::admin).count());
    }

    @Test
    void aStartWithAMasterKeyMakesNoKeyAndStoresNothing() throws Exception {
        String master = "sk-gw-master-0123456789abcdef";
        try (Gateway gateway = start(Map.of("gateway.master-key", master), Map.of())) {
            assertEquals(Optional.empty(), gateway.generatedMasterKey());
            assertEquals(200, new KeysApi(gateway.port(), master).list().statusCode());
            assertEquals(List.of(), KeyRows.read(databaseUrl()), "the master key lives in configuration only");
        }
        try (Gateway fromEnvironment = start(Map.of(), Map.of("GATEWAY_MASTER_KEY", master))) {
            assertEquals(Optional.empty(), fromEnvironment.generatedMasterKey());
            assertEquals(200, new KeysApi(fromEnvironment.port(), master).list().statusCode());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"sk-live-0123456789abcdef0123", "SK-GW-0123456789abcdef0123", "sk-gw-0123456789abcde",
            " sk-gw-0123456789abcde\n", "0123456789abcdef0123456789"})
    void aMasterKeyThatIsNotAGatewayKeyRefusesToStart(String master) {
        ConfigurationException inConfig = assertThrows(ConfigurationException.class,
                () -> start(Map.of("gateway.master-key", master), Map.of()).close());
        ConfigurationException inEnvironment = assertThrows(ConfigurationException.class,
                () -> start(Map.of(), Map.of("GATEWAY_MASTER_KEY", master)).close());

        assertEquals(MASTER_KEY_REFUSED, inConfig.getMessage());
        assertEquals(MASTER_KEY_REFUSED, inEnvironment.getMessage());
        assertFalse(inConfig.getMessage().contains(master.strip()), "the message must not repeat the key");
        assertFalse(Files.exists(folder.resolve("gateway.db")), "refused before the database was touched");
    }

    @Test
    void theShortestAcceptedMasterKeyIsThePrefixAnd16Characters() {
        try (Gateway gateway = start(Map.of("gateway.master-key", "sk-gw-0123456789abcdef"), Map.of())) {
            assertEquals(200, new KeysApi(gateway.port(), "sk-gw-0123456789abcdef").list().statusCode());
        }
    }

    private Gateway start(Map<String, String> config, Map<String, String> environment) {
        Map<String, String> all = new HashMap<>(Map.of(
                "gateway.host", "127.0.0.1",
                "gateway.port", "0",
                "gateway.access-log", "off",
                "gateway.database.url", databaseUrl()));
        all.putAll(config);
        Settings settings = new Settings(Config.just(ConfigSources.create(all)), environment);
        return Gateway.start(settings, PluginDiscovery.discover(), Optional.empty());
    }

    private String databaseUrl() {
        return "jdbc:sqlite:" + folder.resolve("gateway.db");
    }
}
