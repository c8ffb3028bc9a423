package io.aigw.runtime.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.transport.CallerTimeouts;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.aigw.runtime.testing.LogRecords;
import io.helidon.common.media.type.MediaTypes;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** What docs/configuration.md documents: every key's default, and the environment over the file. */
public final class GatewayConfigTest {
    private static final Path SHIPPED_FILE = Path.of("../distribution/src/dist/conf/gateway.yaml");
    private static final Path CONFIGURATION_PAGE = Path.of("../docs/configuration.md");

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
        assertEquals(PoolsConfig.DEFAULTS, config.upstream().pools());
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
        assertEquals(Duration.ofMinutes(2), config.upstream().pools().refusedFor());
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
                Optional.empty(), Optional.empty(), Optional.empty())), openai.models());
        assertFalse(openai.toString().contains("sk-from-vendor"), openai.toString());
        assertTrue(ProviderConfig.enabled(settings, "openai"));
        assertFalse(ProviderConfig.enabled(settings(Map.of(), Map.of("PROVIDERS_XAI_ENABLED", "false")), "xai"));
    }

    @Test
    void aMisspeltMemberOfAnySectionTheGatewayOwnsRefusesTheStartNamingEachByItsPath() {
        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> read(yaml("""
                gateway:
                  port: 8080
                  alias:
                    fast: openai/gpt-5-mini
                  timeouts:
                    conect: 5s
                  database:
                    url: jdbc:sqlite:data/gateway.db
                    pool_size: 4
                providers:
                  openai:
                    api-key: sk-upstream
                    kyes:
                      - name: first
                    models:
                      - id: my-tune
                        context_length: 8000
                  gemini:
                    priority: 2
                  some-provider-installed-later:
                    base-url: http://127.0.0.1:9/v1
                    base_url: http://127.0.0.1:9/v1
                """), Map.of()));

        assertEquals("unknown configuration key gateway.alias (known: access-log, aliases, auto, body-memory, catalogue, console,"
                + " cost-header, database, fairness, host, http2, keys, limits, master-key, max-body-size,"
                + " max-concurrent-requests, name, observe, plugins, pools, port, protocols, shutdown, timeouts, tracing, transport, upstream-tls,"
                + " usage);"
                + " unknown configuration key gateway.database.pool_size (known: check-interval, password, pool-size,"
                + " timeout, url, user);"
                + " unknown configuration key gateway.timeouts.conect (known: caller-body, caller-body-grace,"
                + " caller-body-min-rate, caller-headers, caller-keep-alive, caller-send, connect, first-byte, idle,"
                + " total);"
                + " unknown configuration key providers.openai.kyes (known: api-key, base-url, default-model,"
                + " enabled, headers, keys, models, prefix, priority);"
                + " unknown configuration key providers.openai.models.0.context_length (known: context-length, id,"
                + " kind, name, owned-by, pricing);"
                + " unknown configuration key providers.some-provider-installed-later.base_url (known: api-key,"
                + " base-url, default-model, enabled, headers, keys, models, prefix, priority)."
                + " A key the gateway does not read would be ignored: correct or remove it (docs/configuration.md"
                + " lists every key).", refused.getMessage());
    }

    @Test
    void aValueWhereMembersBelongAndMembersBelowAValueAreRefused() {
        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> read(yaml("""
                gateway:
                  timeouts: 10s
                  port:
                    number: 8080
                """), Map.of()));

        assertEquals("unknown configuration key gateway.port.number (gateway.port takes a value);"
                + " configuration key gateway.timeouts holds members, not a value."
                + " A key the gateway does not read would be ignored: correct or remove it (docs/configuration.md"
                + " lists every key).", refused.getMessage());
    }

    @Test
    void helidonsSectionsTheirSettingsAndOtherTopLevelKeysAreLeftToTheirReaders() {
        LogRecords logged = LogRecords.capture();
        GatewayConfig config;
        try (logged) {
            config = read(yaml("""
                gateway:
                  protocols:
                    http_1_1:
                      max-prologue-length: 8192
                  upstream-tls:
                    trust:
                      pem:
                        certificates:
                          resource:
                            path: /etc/gateway/ca.pem
                providers:
                  openai:
                    headers:
                      OpenAI-Organization: org-1
                    models:
                      - id: my-tune
                        context-length: 8000
                        pricing:
                          input: 1
                          output: 2
                  xai:
                server:
                  max-tcp-connections: 100
                  connection-options:
                    tcp-no-delay: true
                  features:
                    observe:
                      enabled: true
                logging:
                  level: INFO
                """), Map.of("GATEWAY_URL", "http://127.0.0.1:8080", "GATEWAY_ADMIN_KEY", "sk-gw-admin",
                    "SERVER_PORT", "9999", "PATH", "/usr/bin", "GATEWAY_TIMEOUTS", "10s"));
        }

        assertEquals(List.of("The configuration's top-level key 'logging' is not read by the gateway, which reads"
                + " gateway, providers and server (Helidon's): it is ignored."),
                logged.messages(java.util.logging.Level.WARNING, "io.aigw.runtime.config"));
        assertEquals(8192, config.listener().protocols().get("http_1_1.max-prologue-length").asInt().get());
        assertEquals(100, config.listener().server().get("max-tcp-connections").asInt().get());
    }

    @Test
    void anUnquotedOffInTheFileTurnsTheAccessLogOffRatherThanNamingAFile() {
        for (String off : List.of("off", "no", "false", "\"off\"")) {
            assertEquals("off", read(yaml("gateway:\n  access-log: " + off + "\n"), Map.of()).accessLog(), off);
        }
        for (String on : List.of("on", "yes", "true", "stdout")) {
            assertEquals("stdout", read(yaml("gateway:\n  access-log: " + on + "\n"), Map.of()).accessLog(), on);
        }
        assertEquals("logs/access.jsonl", read(yaml("gateway:\n  access-log: logs/access.jsonl\n"), Map.of())
                .accessLog());
        assertEquals("off", read(Map.of(), Map.of("GATEWAY_ACCESS_LOG", "off")).accessLog());
    }

    @Test
    void theShippedFileLoadsAsShippedAndWithEveryKeyItDocumentsUncommented() throws IOException {
        String shipped = Files.readString(SHIPPED_FILE);

        read(yaml(shipped), Map.of());
        String uncommented = uncommented(shipped);
        assertTrue(uncommented.contains("\n        context-length: 128000"), uncommented);
        GatewayConfig config = read(yaml(uncommented), Map.of());
        assertEquals(10_485_760, config.limits().maxBodyBytes());
        assertEquals(Duration.ofMinutes(10), config.upstream().timeouts().total());
    }

    @Test
    void everyGatewayAndProviderKeyTheConfigurationPageDocumentsIsKnown() throws IOException {
        Map<String, String> documented = new java.util.LinkedHashMap<>();
        Matcher row = Pattern.compile("(?m)^\\| `((?:gateway|providers)\\.[^`]+)`").matcher(
                Files.readString(CONFIGURATION_PAGE));
        while (row.find()) {
            String key = row.group(1).replace("<name>", "openai").replace("<Header>", "X-Title")
                    .replace("*", "max-prologue-length");
            documented.put(key.endsWith(".models") ? key + ".0.id" : key.startsWith("providers.") && key.endsWith(".keys")
                    ? key + ".0.name" : key, "1");
        }

        assertTrue(documented.size() > 40, documented.toString());
        ConfigurationMembers.requireKnown(settings(documented, Map.of()));
    }

    /**
     * A key read under {@code gateway} but missing from {@link ConfigurationMembers} would refuse
     * every start that sets it: each value the sources read by its literal name is known.
     */
    @Test
    void everyGatewayKeyTheSourcesReadIsKnown() throws IOException {
        Pattern read = Pattern.compile("(?:settings\\.get\\w*\\(|\\(settings, )\"(gateway\\.[^\"]+)\"");
        Map<String, String> keys = new java.util.TreeMap<>();
        try (java.util.stream.Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            for (Path file : files.filter(path -> path.toString().endsWith(".java")).toList()) {
                Matcher key = read.matcher(Files.readString(file));
                while (key.find()) {
                    keys.put(key.group(1), "1");
                }
            }
        }

        assertTrue(keys.keySet().containsAll(List.of("gateway.port", "gateway.plugins.call-timeout",
                "gateway.transport.upstream-pool", "gateway.timeouts.caller-body")), keys.toString());
        ConfigurationMembers.requireKnown(settings(keys, Map.of()));
    }

    /**
     * The shipped file with its commented-out keys switched on: each line {@code # key: value} below
     * the first section, with its indentation kept.
     */
    private static String uncommented(String shipped) {
        StringBuilder file = new StringBuilder();
        boolean sections = false;
        Pattern commentedKey = Pattern.compile("^( *)# ( *(?:- )?[A-Za-z0-9_-]+:(?: .*)?)$");
        for (String line : shipped.split("\n")) {
            sections |= line.equals("gateway:");
            Matcher key = commentedKey.matcher(line);
            file.append(sections && key.matches() ? key.group(1) + key.group(2) : line).append('\n');
        }
        return file.toString();
    }

    private static Config yaml(String text) {
        return Config.builder(ConfigSources.create(text, MediaTypes.APPLICATION_X_YAML))
                .disableEnvironmentVariablesSource().disableSystemPropertiesSource().build();
    }

    private static GatewayConfig read(Config file, Map<String, String> environment) {
        return GatewayConfig.read(new Settings(file, environment));
    }

    private static GatewayConfig read(Map<String, String> file, Map<String, String> environment) {
        return GatewayConfig.read(settings(file, environment));
    }

    private static Settings settings(Map<String, String> file, Map<String, String> environment) {
        return new Settings(Config.just(ConfigSources.create(file)), environment);
    }
}
