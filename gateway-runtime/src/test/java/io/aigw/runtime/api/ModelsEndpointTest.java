package io.aigw.runtime.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.plugin.DiscoveredPlugin;
import io.aigw.runtime.plugin.PluginDiscovery;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.PluginJarMaker;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code GET /api/v1/models}, {@code GET /api/v1/models/{id}} and the key check in front of the endpoints. */
public final class ModelsEndpointTest {
    private static final String UNAUTHORIZED = "{\"error\":{\"message\":\"Invalid or missing workspace key. Send"
            + " 'Authorization: Bearer sk-gw-...'.\",\"type\":\"authentication_error\",\"param\":null,"
            + "\"code\":\"invalid_api_key\"}}";

    @ParameterizedTest(name = "Authorization: {0}")
    @ValueSource(strings = {"", "Basic dXNlcjpwYXNz", "Bearer sk-live-not-a-gateway-key-0000000000",
            "Bearer sk-gw-unknown-key-000000000000000", "Bearer"})
    void bothEndpointsRefuseAMissingOrWrongKeyWithTheSameBody(String authorization) {
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of())) {
            for (HttpRequest.Builder request : List.of(
                    HttpRequest.newBuilder(gateway.uri("/api/v1/models")),
                    HttpRequest.newBuilder(gateway.uri("/api/v1/chat/completions")).header("Content-Type",
                            "application/json").POST(HttpRequest.BodyPublishers.ofString(
                            "{\"model\":\"openai/gpt-5\",\"messages\":[]}")))) {
                if (!authorization.isEmpty()) {
                    request.header("Authorization", authorization);
                }
                HttpResponse<String> response = gateway.send(request.build());

                assertEquals(401, response.statusCode());
                assertEquals(UNAUTHORIZED, response.body());
            }
        }
    }

    @Test
    void theListIsInOpenAisShapeAutoFirstThenEveryCatalogueByPriorityEachWithTheGatewaysTwoMembersBeside() {
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of())) {
            HttpResponse<String> response = gateway.send(gateway.request("/api/v1/models").build());

            assertEquals(200, response.statusCode());
            assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
            assertTrue(response.body().startsWith("{\"object\":\"list\",\"data\":[{\"id\":\"gateway/auto\","
                    + "\"object\":\"model\",\"created\":"), response.body());
            JsonObject body = Json.createReader(new StringReader(response.body())).readObject();
            assertEquals(Set.of("object", "data"), body.keySet());
            JsonArray data = body.getJsonArray("data");
            JsonObject auto = data.getJsonObject(0);
            assertEquals("gateway/auto", auto.getString("id"));
            assertEquals("Auto: the first available provider's default model", auto.getString("name"));
            assertEquals("aigw", auto.getString("owned_by"));
            assertEquals(ManagementFactory.getRuntimeMXBean().getStartTime() / 1000, created(auto));
            for (JsonValue value : data) {
                JsonObject model = value.asJsonObject();
                assertEquals(List.of("id", "object", "created", "owned_by", "name", "context_length", "kind"),
                        List.copyOf(model.keySet()), model.toString());
                assertEquals("model", model.getString("object"));
                assertEquals(JsonValue.ValueType.NUMBER, model.get("context_length").getValueType());
                assertTrue(model.getJsonNumber("context_length").isIntegral());
                assertTrue(model.getJsonNumber("created").isIntegral());
                assertTrue(created(model) > 1_700_000_000 && created(model) <= Instant.now().getEpochSecond(),
                        model.toString());
            }
            List<String> prefixes = data.stream().map(value -> value.asJsonObject().getString("id"))
                    .map(id -> id.substring(0, id.indexOf('/'))).distinct().toList();
            assertEquals(List.of("gateway", "openai", "gemini", "anthropic", "xai", "openrouter", "acme"), prefixes);
            assertTrue(response.body().contains("{\"id\":\"openai/gpt-5\",\"object\":\"model\",\"created\":"
                    + catalogueBuilt("openai") + ",\"owned_by\":\"openai\",\"name\":\"GPT-5\","
                    + "\"context_length\":400000,\"kind\":\"chat\"}"), response.body());
            assertEquals(1, count(response.body(), "\"openrouter/auto\""));
            assertFalse(response.body().contains("openrouter/openrouter"));
            List<String> ids = data.stream().map(value -> value.asJsonObject().getString("id")).toList();
            assertEquals(ids.size(), Set.copyOf(ids).size(), "an id listed twice: " + ids);
        }
    }

    @Test
    void priorityPrefixAndNameSettingsShowInTheList() {
        try (TestGateway gateway = TestGateway.start(Map.of(
                "providers.xai.priority", "0",
                "providers.anthropic.prefix", "claude",
                "gateway.name", "acme-corp-gateway"), Map.of())) {
            JsonArray data = Json.createReader(new StringReader(
                    gateway.send(gateway.request("/api/v1/models").build()).body())).readObject().getJsonArray("data");

            assertEquals("acme-corp-gateway", data.getJsonObject(0).getString("owned_by"));
            List<String> prefixes = data.stream().map(value -> value.asJsonObject().getString("id"))
                    .map(id -> id.substring(0, id.indexOf('/'))).distinct().toList();
            assertEquals(List.of("gateway", "xai", "openai", "gemini", "claude", "openrouter", "acme"), prefixes);
            assertEquals("{\"id\":\"claude/claude-sonnet-4-5\",\"object\":\"model\",\"created\":"
                    + catalogueBuilt("anthropic") + ",\"owned_by\":\"anthropic\",\"name\":\"Claude Sonnet 4.5\","
                    + "\"context_length\":200000,\"kind\":\"chat\"}", data.stream().map(JsonValue::toString)
                    .filter(model -> model.contains("claude-sonnet-4-5")).findFirst().orElseThrow());
        }
    }

    @Test
    void aCatchAllModelWhosePrefixAnotherProviderClaimsIsLeftOutAsItWouldNotReachTheCatchAll() {
        try (TestGateway gateway = TestGateway.start(Map.of(
                "providers.openrouter.models.0.id", "anthropic/claude-sonnet-4-5",
                "providers.openrouter.models.0.context-length", "200000",
                "providers.openrouter.models.1.id", "meta-llama/llama-3-8b",
                "providers.openrouter.models.1.name", "Llama 3 8B",
                "providers.openrouter.models.1.context-length", "8192",
                "providers.openrouter.models.1.owned-by", "meta-llama"), Map.of())) {
            String body = gateway.send(gateway.request("/api/v1/models").build()).body();

            // anthropic/claude-sonnet-4-5 goes to the anthropic provider: listed once, as its model.
            assertEquals(1, count(body, "\"anthropic/claude-sonnet-4-5\""), body);
            assertTrue(body.contains("{\"id\":\"anthropic/claude-sonnet-4-5\",\"object\":\"model\",\"created\":"
                    + catalogueBuilt("anthropic") + ",\"owned_by\":\"anthropic\",\"name\":\"Claude Sonnet 4.5\","
                    + "\"context_length\":200000,\"kind\":\"chat\"}"), body);
            // A model configuration adds is listed with its provider's catalogue's time.
            assertTrue(body.contains("{\"id\":\"meta-llama/llama-3-8b\",\"object\":\"model\",\"created\":"
                    + catalogueBuilt("openrouter") + ",\"owned_by\":\"meta-llama\",\"name\":\"Llama 3 8B\","
                    + "\"context_length\":8192,\"kind\":\"chat\"}"), body);
        }
    }

    @Test
    void configurationAddsAndOverridesCatalogueEntriesAndCanSwitchAProviderOff() {
        try (TestGateway gateway = TestGateway.start(Map.of(
                "providers.openai.models.0.id", "gpt-5",
                "providers.openai.models.0.name", "GPT-5 (our deployment)",
                "providers.openai.models.0.context-length", "272000",
                "providers.openai.models.1.id", "ft:gpt-4o:acme:2026",
                "providers.openai.models.1.name", "Our fine-tune",
                "providers.openai.models.1.context-length", "128000",
                "providers.openai.models.1.owned-by", "acme",
                "providers.xai.enabled", "false"), Map.of())) {
            String body = gateway.send(gateway.request("/api/v1/models").build()).body();

            long created = catalogueBuilt("openai");
            assertTrue(body.contains("{\"id\":\"openai/gpt-5\",\"object\":\"model\",\"created\":" + created
                    + ",\"owned_by\":\"openai\",\"name\":\"GPT-5 (our deployment)\",\"context_length\":272000,\"kind\":\"chat\"}"),
                    body);
            assertEquals(1, count(body, "\"openai/gpt-5\""));
            assertTrue(body.contains("{\"id\":\"openai/ft:gpt-4o:acme:2026\",\"object\":\"model\",\"created\":"
                    + created + ",\"owned_by\":\"acme\",\"name\":\"Our fine-tune\",\"context_length\":128000,\"kind\":\"chat\"}"),
                    body);
            assertFalse(body.contains("xai/"), body);
        }
    }

    @Test
    void aConfiguredModelWhoseContextLengthIsNoNumberRefusesToStartNamingTheEntry() {
        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> TestGateway.start(Map.of(
                "providers.openai.models.0.id", "gpt-5-custom",
                "providers.openai.models.0.context-length", "400k"), Map.of()));

        assertEquals("The 'context-length' of the entry 'gpt-5-custom' of providers.openai.models must be a whole"
                + " number of tokens.", refused.getMessage());
    }

    @Test
    void aPluginJarsModelsAreCreatedWhenItsCatalogueWasBuiltNotWhenItWasLoaded(@TempDir Path work) {
        Path plugins = work.resolve("plugins");
        Instant built = Instant.parse("2025-08-07T17:00:00Z");
        new PluginJarMaker(work)
                .source("com.example.widget.Plugin", PluginJarMaker.pluginSource("widget", "widget", "", """
                            @Override
                            public java.util.Optional<java.net.URL> catalogue() {
                                return java.util.Optional.ofNullable(Plugin.class.getResource("models.json"));
                            }
                        """))
                .service("com.example.widget.Plugin")
                .resource("com/example/widget/models.json",
                        "[{\"id\":\"widget-1\",\"name\":\"Widget One\",\"context_length\":32000,\"owned_by\":\"widgets\"}]")
                .builtAt(built)
                .writeTo(createDirectories(plugins), "widget.jar");

        try (TestGateway gateway = TestGateway.start(Map.of("gateway.plugins.dir", plugins.toString(),
                "gateway.plugins.watch", "false"), Map.of())) {
            HttpResponse<String> response = gateway.send(gateway.request("/api/v1/models/widget/widget-1").build());

            assertEquals(200, response.statusCode(), response.body());
            assertEquals("{\"id\":\"widget/widget-1\",\"object\":\"model\",\"created\":" + built.getEpochSecond()
                    + ",\"owned_by\":\"widgets\",\"name\":\"Widget One\",\"context_length\":32000,\"kind\":\"chat\"}", response.body());
        }
    }

    @ParameterizedTest(name = "GET /api/v1/models/{0}")
    @ValueSource(strings = {"openai/gpt-5", "openai%2Fgpt-5", "openai%2fgpt-5"})
    void oneModelIsRetrievedByItsIdWrittenWithItsSlashOrEncoded(String path) {
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of())) {
            HttpResponse<String> response = gateway.send(gateway.request("/api/v1/models/" + path).build());

            assertEquals(200, response.statusCode(), response.body());
            assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
            assertEquals("{\"id\":\"openai/gpt-5\",\"object\":\"model\",\"created\":" + catalogueBuilt("openai")
                    + ",\"owned_by\":\"openai\",\"name\":\"GPT-5\",\"context_length\":400000,\"kind\":\"chat\"}", response.body());
        }
    }

    @Test
    void anIdOfSeveralSlashesAndAutoAreRetrievedAsListed() {
        try (TestGateway gateway = TestGateway.start(Map.of(
                "providers.openrouter.models.0.id", "meta-llama/llama-3-8b",
                "providers.openrouter.models.0.context-length", "8192",
                "providers.openrouter.models.1.id", "openrouter/anthropic/claude-sonnet-4.5",
                "providers.openrouter.models.1.context-length", "1000000"), Map.of())) {
            JsonArray data = Json.createReader(new StringReader(
                    gateway.send(gateway.request("/api/v1/models").build()).body())).readObject().getJsonArray("data");
            for (String id : List.of("gateway/auto", "meta-llama/llama-3-8b", "openrouter/anthropic/claude-sonnet-4.5",
                    "openrouter/auto", "acme/small-model")) {
                HttpResponse<String> response = gateway.send(gateway.request("/api/v1/models/" + id).build());

                assertEquals(200, response.statusCode(), id + ": " + response.body());
                assertEquals(data.stream().map(JsonValue::toString).filter(model -> model.startsWith("{\"id\":\"" + id
                        + "\",")).findFirst().orElseThrow(), response.body());
            }
        }
    }

    @ParameterizedTest(name = "GET /api/v1/models/{0}")
    @ValueSource(strings = {"openai/gpt-6", "gpt-5", "nobody/serves-this", "openai/gpt-5/extra", "openai%2Fgpt-6"})
    void anIdNotInTheListIs404ModelNotFoundInOpenAisShape(String path) {
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of())) {
            HttpResponse<String> response = gateway.send(gateway.request("/api/v1/models/" + path).build());

            assertEquals(404, response.statusCode());
            assertEquals("application/json", response.headers().firstValue("Content-Type").orElseThrow());
            assertEquals("{\"error\":{\"message\":\"The model '" + path.replace("%2F", "/") + "' does not exist:"
                    + " GET /api/v1/models lists the models this key may use.\",\"type\":\"invalid_request_error\","
                    + "\"param\":\"model\",\"code\":\"model_not_found\"}}", response.body());
        }
    }

    @Test
    void aKeyWithAnAllowListRetrievesOnlyTheModelsItMayUse() {
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of())) {
            KeysApi api = KeysApi.of(gateway);
            String key = KeysApi.json(api.create("{\"name\":\"app\",\"models\":[\"openai/*\"]}").body())
                    .getString("key");

            assertEquals(200, api.send(api.request("/api/v1/models/openai/gpt-5", key)).statusCode());
            HttpResponse<String> refused = api.send(api.request("/api/v1/models/anthropic/claude-sonnet-4-5", key));
            assertEquals(404, refused.statusCode());
            assertTrue(refused.body().contains("\"code\":\"model_not_found\""), refused.body());
            assertEquals(200, gateway.send(gateway.request("/api/v1/models/anthropic/claude-sonnet-4-5").build())
                    .statusCode());
        }
    }

    @Test
    void retrievingNeedsAWorkspaceKeyAsListingDoes() {
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of())) {
            HttpResponse<String> response = gateway.send(HttpRequest.newBuilder(
                    gateway.uri("/api/v1/models/openai/gpt-5")).build());

            assertEquals(401, response.statusCode());
            assertEquals(UNAUTHORIZED, response.body());
        }
    }

    /**
     * When the catalogue of a provider's plugin was built, in Unix seconds: the time of its
     * {@code models.json} in the plugin's jar, or of the file where the plugin is a folder of classes.
     */
    private static long catalogueBuilt(String provider) {
        URL catalogue = PluginDiscovery.discover().stream().map(DiscoveredPlugin::plugin)
                .filter(plugin -> plugin.descriptor().prefix().equals(provider))
                .findFirst().orElseThrow().catalogue().orElseThrow();
        try {
            if (catalogue.getProtocol().equals("jar")) {
                String file = catalogue.getPath().substring("file:".length(), catalogue.getPath().indexOf("!/"));
                try (ZipFile jar = new ZipFile(file)) {
                    return jar.getEntry(catalogue.getPath().substring(catalogue.getPath().indexOf("!/") + 2))
                            .getTime() / 1000;
                }
            }
            return Files.getLastModifiedTime(Path.of(catalogue.toURI())).toMillis() / 1000;
        } catch (IOException | URISyntaxException e) {
            throw new AssertionError(e);
        }
    }

    private static Path createDirectories(Path folder) {
        try {
            return Files.createDirectories(folder);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long created(JsonObject model) {
        return model.getJsonNumber("created").longValueExact();
    }

    private static int count(String text, String part) {
        int count = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + 1)) {
            count++;
        }
        return count;
    }
}
