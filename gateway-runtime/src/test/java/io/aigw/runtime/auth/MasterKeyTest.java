package io.aigw.runtime.auth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.Gateway;
import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.plugin.PluginDiscovery;
import io.aigw.runtime.testing.TestGateway;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code GATEWAY_MASTER_KEY}: checked at startup, made when absent, and the key that opens both endpoints. */
public final class MasterKeyTest {
    private static final String REFUSAL = "GATEWAY_MASTER_KEY must start with 'sk-gw-' and carry at least 16 more"
            + " characters; make one with: echo sk-gw-$(openssl rand -hex 24)";

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    @TempDir
    Path folder;

    @ParameterizedTest(name = "GATEWAY_MASTER_KEY={0}")
    @ValueSource(strings = {"sk-live-0123456789abcdef0123456789", "0123456789abcdef0123456789abcdef",
            "SK-GW-0123456789abcdef0123", "sk-gw-too-short"})
    void aMasterKeyWithoutTheGatewayPrefixOrTooShortRefusesToStart(String key) {
        ConfigurationException refused = assertThrows(ConfigurationException.class,
                () -> start("first", Map.of("GATEWAY_MASTER_KEY", key)));

        assertEquals(REFUSAL, refused.getMessage());
        assertTrue(!refused.getMessage().contains(key), "the refusal must not echo the key into logs");
    }

    @Test
    void theEnvironmentsMasterKeyOpensBothEndpointsAndWinsOverTheFile() {
        String key = "sk-gw-from-the-environment-0123456789";
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of("GATEWAY_MASTER_KEY", key))) {
            assertEquals(200, models(gateway.gateway(), key).statusCode());
            // Routed and refused for want of an upstream key: past the key check.
            assertEquals(400, chat(gateway.gateway(), key, "xai/grok-4").statusCode());
            assertEquals(401, models(gateway.gateway(), TestGateway.KEY).statusCode());
            assertEquals(401, chat(gateway.gateway(), TestGateway.KEY, "xai/grok-4").statusCode());
        }
    }

    @Test
    void aMasterKeyReadFromASecretFileWithItsTrailingNewlineStillWorks() {
        String key = "sk-gw-mounted-secret-0123456789abcdef";
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of("GATEWAY_MASTER_KEY", key + "\n"))) {
            assertEquals(200, models(gateway.gateway(), key).statusCode());
        }
    }

    @Test
    void withoutAMasterKeyARandomOneIsMadeThatWorksAndDiffersBetweenInstallations() {
        String first;
        String second;
        try (Gateway gateway = start("first", Map.of())) {
            first = gateway.generatedMasterKey().orElseThrow();
            assertTrue(first.matches("sk-gw-[A-Za-z0-9_-]{43}"), first);
            assertEquals(200, models(gateway, first).statusCode());
            assertEquals(400, chat(gateway, first, "xai/grok-4").statusCode());
            assertEquals(401, models(gateway, first.substring(0, first.length() - 1)).statusCode());
        }
        try (Gateway gateway = start("second", Map.of())) {
            second = gateway.generatedMasterKey().orElseThrow();
            assertTrue(second.matches("sk-gw-[A-Za-z0-9_-]{43}"), second);
            assertEquals(200, models(gateway, second).statusCode());
            assertEquals(401, models(gateway, first).statusCode());
        }
        assertNotEquals(first, second);
    }

    @Test
    void aConfiguredMasterKeyMeansNoneIsMade() {
        try (Gateway gateway = start("first", Map.of("GATEWAY_MASTER_KEY", TestGateway.KEY))) {
            assertEquals(Optional.empty(), gateway.generatedMasterKey());
            assertEquals(200, models(gateway, TestGateway.KEY).statusCode());
        }
    }

    /** Starts a gateway without {@code gateway.master-key} in its file, on a database of its own. */
    private Gateway start(String database, Map<String, String> environment) {
        Map<String, String> config = Map.of(
                "gateway.host", "127.0.0.1",
                "gateway.port", "0",
                "gateway.access-log", "off",
                "gateway.database.url", "jdbc:sqlite:" + folder.resolve(database + ".db"));
        return Gateway.start(new Settings(Config.just(ConfigSources.create(config)), environment),
                PluginDiscovery.discover(), Optional.empty());
    }

    private HttpResponse<String> models(Gateway gateway, String key) {
        return send(HttpRequest.newBuilder(uri(gateway, "/api/v1/models")).header("Authorization", "Bearer " + key)
                .build());
    }

    private HttpResponse<String> chat(Gateway gateway, String key, String model) {
        return send(HttpRequest.newBuilder(uri(gateway, "/api/v1/chat/completions"))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model + "\",\"messages\":[]}"))
                .build());
    }

    private static URI uri(Gateway gateway, String path) {
        return URI.create("http://127.0.0.1:" + gateway.port() + path);
    }

    private HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
