package io.aigw.runtime.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.transport.CallerTimeouts;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** The configuration README's table documents: every key's default, and the environment over the file. */
public final class GatewayConfigTest {

    @Test
    void withNothingSetEveryKeyHasTheDefaultReadmeDocuments() {
        GatewayConfig config = read(Map.of(), Map.of());

        assertEquals("0.0.0.0", config.listener().host());
        assertEquals(8080, config.listener().port());
        assertEquals(OptionalInt.empty(), config.listener().observePort());
        assertFalse(config.listener().http2());
        assertEquals(Optional.empty(), config.keys().masterKey());
        assertEquals("aigw", config.name());
        assertEquals(10_485_760, config.limits().maxBodyBytes());
        long heap = Runtime.getRuntime().maxMemory();
        long bodyMemory = Math.max(3 * 10_485_760L, heap / 10);
        assertEquals(bodyMemory, config.limits().bodyMemory());
        assertEquals(Math.max(64, (heap - bodyMemory - GatewayConfig.Limits.BASE_HEAP) / GatewayConfig.Limits.streamHeap()),
                config.limits().maxConcurrentRequests());
        assertEquals(config.limits().maxConcurrentRequests() / 16, config.limits().inFlightReserve());
        assertEquals(Math.max(3 * 10_485_760L, bodyMemory / 2), config.limits().keyBodyMemory());
        assertEquals(new UpstreamTimeouts(Duration.ofSeconds(10), Duration.ofSeconds(120), Duration.ofSeconds(120),
                Duration.ofMinutes(10)), config.upstream().timeouts());
        assertEquals(Duration.ofSeconds(60), config.upstream().keyCooldown());
        assertEquals(Optional.empty(), config.upstream().tls());
        assertEquals("jdbc:sqlite:" + Path.of(System.getProperty("gateway.home", "."), "data", "gateway.db"),
                config.database().url());
        assertEquals(Optional.empty(), config.database().user());
        assertEquals(Optional.empty(), config.database().password());
        assertEquals(8, config.database().poolSize());
        assertEquals(Duration.ofSeconds(5), config.keys().cacheTtl());
        assertEquals(10_000, config.usageQueue());
        assertEquals("stdout", config.accessLog());
        assertEquals(Duration.ofSeconds(30), config.gracePeriod());
    }

    @Test
    void eachKeyIsReadFromTheFileAndItsEnvironmentVariableWins() {
        Map<String, String> file = Map.of(
                "gateway.port", "9000",
                "gateway.timeouts.first-byte", "30s",
                "gateway.database.pool-size", "4",
                "gateway.observe.port", "9100",
                "gateway.http2", "true");
        Map<String, String> environment = Map.of(
                "GATEWAY_PORT", "9001",
                "GATEWAY_TIMEOUTS_IDLE", "500ms",
                "GATEWAY_MAX_BODY_SIZE", "1024",
                "GATEWAY_MAX_CONCURRENT_REQUESTS", "10",
                "GATEWAY_DATABASE_URL", "jdbc:postgresql://db/gateway",
                "GATEWAY_DATABASE_PASSWORD", "s3cret",
                "GATEWAY_AUTO_KEY_COOLDOWN", "2m",
                "GATEWAY_SHUTDOWN_GRACE_PERIOD", "PT5S");

        GatewayConfig config = read(file, environment);

        assertEquals(9001, config.listener().port());
        assertEquals(OptionalInt.of(9100), config.listener().observePort());
        assertTrue(config.listener().http2());
        assertEquals(Duration.ofSeconds(30), config.upstream().timeouts().firstByte());
        assertEquals(Duration.ofMillis(500), config.upstream().timeouts().idle());
        assertEquals(1024, config.limits().maxBodyBytes());
        assertEquals(10, config.limits().maxConcurrentRequests());
        assertEquals(74, config.limits().maxCallerConnections());
        assertEquals("jdbc:postgresql://db/gateway", config.database().url());
        assertEquals("s3cret", config.database().password().orElseThrow().value());
        assertEquals(4, config.database().poolSize());
        assertEquals(Duration.ofMinutes(2), config.upstream().keyCooldown());
        assertEquals(Duration.ofSeconds(5), config.gracePeriod());
    }

    @Test
    void secretsNeverShowWhenTheConfigurationIsPrinted() {
        GatewayConfig config = read(Map.of("gateway.master-key", "sk-gw-0123456789abcdef0123"),
                Map.of("GATEWAY_DATABASE_PASSWORD", "s3cret"));

        assertFalse(config.toString().contains("sk-gw-0123456789abcdef0123"), config.toString());
        assertFalse(config.toString().contains("s3cret"), config.toString());
    }

    @Test
    void anUnusableValueIsRefusedNamingItsKey() {
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> read(Map.of(), Map.of("GATEWAY_TIMEOUTS_CONNECT", "soon")));

        assertEquals("gateway.timeouts.connect must be a duration such as 500ms, 10s, 2m or PT10S, not 'soon'",
                e.getMessage());
    }

    @Test
    void fairnessSharesThatCannotWorkAreRefusedNamingTheirKey() {
        ConfigurationException reserve = assertThrows(ConfigurationException.class, () -> read(Map.of(
                "gateway.max-concurrent-requests", "8", "gateway.fairness.in-flight-reserve", "8"), Map.of()));
        assertTrue(reserve.getMessage().startsWith("gateway.fairness.in-flight-reserve (8) must be"),
                reserve.getMessage());

        // A key's share must hold the largest body, or that body could never be sent.
        ConfigurationException share = assertThrows(ConfigurationException.class, () -> read(Map.of(
                "gateway.max-body-size", "1000", "gateway.fairness.key-body-memory", "2999"), Map.of()));
        assertTrue(share.getMessage().startsWith("gateway.fairness.key-body-memory (2999 bytes) must hold at least"
                + " 3 times gateway.max-body-size"), share.getMessage());

        ConfigurationException rate = assertThrows(ConfigurationException.class, () -> CallerTimeouts.from(
                settings(Map.of("gateway.timeouts.caller-body-min-rate", "-1"), Map.of())));
        assertTrue(rate.getMessage().startsWith("gateway.timeouts.caller-body-min-rate must be 0"), rate.getMessage());
    }

    @Test
    void helidonsOwnProtocolSettingsAreRefused() {
        ConfigurationException e = assertThrows(ConfigurationException.class,
                () -> read(Map.of("server.protocols.http_1_1.max-prologue-length", "8192"), Map.of()));

        assertTrue(e.getMessage().contains("gateway.protocols.http_1_1"), e.getMessage());
    }

    @Test
    void aProvidersVendorVariablesWinOverItsKeysAndSilentKeysLeaveThePluginsDeclaration() {
        Settings settings = settings(Map.of(
                "providers.openai.api-key", "sk-from-file",
                "providers.openai.base-url", "http://file.example/v1",
                "providers.openai.priority", "7",
                "providers.openai.models.0.id", "my-tune",
                "providers.openai.models.0.context-length", "8000"),
                Map.of("OPENAI_API_KEY", "sk-from-vendor", "PROVIDERS_OPENAI_DEFAULT_MODEL", "gpt-5-mini"));

        ProviderConfig openai = ProviderConfig.read(settings, "openai", "OPENAI_API_KEY", "OPENAI_BASE_URL");

        assertEquals("sk-from-vendor", openai.apiKey().orElseThrow().value());
        assertEquals(Optional.of(URI.create("http://file.example/v1")), openai.baseUrl());
        assertEquals(Optional.of("gpt-5-mini"), openai.defaultModel());
        assertEquals(OptionalInt.of(7), openai.priority());
        assertEquals(Optional.empty(), openai.prefix());
        assertEquals(List.of(new ProviderConfig.Model("my-tune", Optional.empty(), OptionalLong.of(8000),
                Optional.empty(), Optional.empty())), openai.models());
        assertFalse(openai.toString().contains("sk-from-vendor"), openai.toString());
        assertTrue(ProviderConfig.enabled(settings, "openai"));
        assertFalse(ProviderConfig.enabled(settings(Map.of(), Map.of("PROVIDERS_XAI_ENABLED", "false")), "xai"));
    }

    private static GatewayConfig read(Map<String, String> file, Map<String, String> environment) {
        return GatewayConfig.read(settings(file, environment));
    }

    private static Settings settings(Map<String, String> file, Map<String, String> environment) {
        return new Settings(Config.just(ConfigSources.create(file)), environment);
    }
}
