package io.aigw.runtime.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.testing.CannedUpstream;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashMap;
import java.util.Map;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@code gateway.aliases}: a name of the gateway's own for a model, or for models tried in order;
 * listed, allowed to keys by either name, and recorded with both the alias and the model that answered.
 */
public final class AliasesTest {
    private static final String ANSWER = "{\"id\":\"c\",\"object\":\"chat.completion\",\"choices\":[],"
            + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}";

    private MockWebServer openai;
    private MockWebServer anthropic;
    private TestGateway gateway;

    @BeforeEach
    void start() throws Exception {
        openai = CannedUpstream.start(200, ANSWER);
        anthropic = CannedUpstream.start(503, "{\"error\":{\"message\":\"overloaded\",\"type\":\"overloaded_error\"}}");
        gateway = TestGateway.start(Map.of("providers.openai.base-url", openai.url("/v1").toString(),
                        "providers.anthropic.base-url", anthropic.url("/v1").toString(),
                        "gateway.aliases.fast", "openai/gpt-5-mini",
                        "gateway.aliases.smart.0", "anthropic/claude-sonnet-4-5",
                        "gateway.aliases.smart.1", "openai/gpt-5",
                        "gateway.aliases.canary.0.model", "openai/gpt-5",
                        "gateway.aliases.canary.0.weight", "9",
                        "gateway.aliases.canary.1.model", "openai/gpt-5-mini",
                        "gateway.aliases.canary.1.weight", "1"),
                Map.of("OPENAI_API_KEY", "sk-upstream-openai", "ANTHROPIC_API_KEY", "sk-upstream-anthropic"));
    }

    @AfterEach
    void stop() {
        gateway.close();
        openai.close();
        anthropic.close();
    }

    @Test
    void anAliasGoesToItsModelAndItsRecordKeepsBothNames() throws Exception {
        HttpResponse<String> response = gateway.chat(chat("fast"));

        assertEquals(200, response.statusCode(), response.body());
        RecordedRequest received = openai.takeRequest();
        assertTrue(received.getBody().utf8().contains("\"model\":\"gpt-5-mini\""), received.getBody().utf8());
        assertEquals("fast openai gpt-5-mini", usageRecord());
    }

    @Test
    void anAliasOfSeveralModelsFallsBackAlongThemInOrder() throws Exception {
        HttpResponse<String> response = gateway.chat(chat("smart"));

        assertEquals(200, response.statusCode(), response.body());
        assertEquals("openai", response.headers().firstValue("X-Gateway-Provider").orElseThrow());
        assertTrue(anthropic.takeRequest().getBody().utf8().contains("\"model\":\"claude-sonnet-4-5\""));
        assertTrue(openai.takeRequest().getBody().utf8().contains("\"model\":\"gpt-5\""));
    }

    @Test
    void aWeightedSplitSendsEachModelItsShare() throws Exception {
        int toGpt5 = 0;
        for (int i = 0; i < 200; i++) {
            assertEquals(200, gateway.chat(chat("canary")).statusCode());
            toGpt5 += openai.takeRequest().getBody().utf8().contains("\"model\":\"gpt-5\"") ? 1 : 0;
        }

        // 180 expected of 200 at 9:1; the binomial's deviation is 4.2, so 25 is six of them.
        assertTrue(Math.abs(toGpt5 - 180) <= 25, toGpt5 + " of 200 went to gpt-5");
    }

    @Test
    void aliasesAreListedAfterGatewayAuto() {
        String models = gateway.send(gateway.request("/api/v1/models").GET().build()).body();

        assertTrue(models.indexOf("\"id\":\"gateway/auto\"") < models.indexOf("\"id\":\"fast\"")
                && models.contains("\"name\":\"Alias of openai/gpt-5-mini\"")
                && models.contains("\"name\":\"Alias of anthropic/claude-sonnet-4-5, then openai/gpt-5\"")
                && models.contains("\"name\":\"Alias of openai/gpt-5 (weight 9), openai/gpt-5-mini (weight 1)\""),
                models);
    }

    @Test
    void aKeyMayUseAnAliasByItsNameOrByTheModelsItStandsFor() {
        KeysApi keys = KeysApi.of(gateway);
        String byAlias = key(keys, "[\"fast\"]");
        String byModel = key(keys, "[\"openai/gpt-5-mini\"]");
        String other = key(keys, "[\"openai/gpt-4o\"]");

        assertEquals(200, send(keys, byAlias, "fast").statusCode());
        assertEquals(403, send(keys, byAlias, "openai/gpt-5").statusCode(), "the alias allows no other model");
        assertEquals(200, send(keys, byModel, "fast").statusCode());
        assertEquals(403, send(keys, other, "fast").statusCode());
        String listed = keys.send(keys.request("/api/v1/models", byAlias).GET()).body();
        assertTrue(listed.contains("\"id\":\"fast\"") && !listed.contains("\"id\":\"smart\"")
                && !listed.contains("\"id\":\"canary\""), listed);
    }

    @Test
    void anAliasOfAModelNoProviderServesStopsTheStart() {
        Map<String, String> config = new HashMap<>(Map.of("gateway.aliases.broken", "nobody/model"));
        config.put("providers.openrouter.enabled", "false");
        ConfigurationException refused = assertThrows(ConfigurationException.class,
                () -> TestGateway.start(config, Map.of()).close());

        assertTrue(refused.getMessage().startsWith("The alias 'broken' of gateway.aliases names 'nobody/model',"
                + " which no installed provider serves"), refused.getMessage());
    }

    private static String key(KeysApi keys, String models) {
        HttpResponse<String> created = keys.create("{\"name\":\"k\",\"models\":" + models + "}");
        assertEquals(201, created.statusCode(), created.body());
        return KeysApi.json(created.body()).getString("key");
    }

    private static HttpResponse<String> send(KeysApi keys, String key, String model) {
        return keys.send(keys.request("/api/v1/chat/completions", key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(chat(model))));
    }

    private static String chat(String model) {
        return "{\"model\":\"" + model + "\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    }

    private String usageRecord() throws Exception {
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try (Connection connection = DriverManager.getConnection(gateway.databaseUrl());
                 Statement sql = connection.createStatement();
                 ResultSet row = sql.executeQuery("SELECT requested_model, provider, upstream_model FROM usage_records")) {
                if (row.next()) {
                    return row.getString(1) + " " + row.getString(2) + " " + row.getString(3);
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no usage record");
            }
            Thread.sleep(50);
        }
    }
}
