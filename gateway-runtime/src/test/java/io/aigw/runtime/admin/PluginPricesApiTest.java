package io.aigw.runtime.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.TestGateway;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code GET /admin/v1/plugins} says which prices the gateway charges with and since when: the
 * version usage records name, each provider's own table (version, the day its catalogue's prices
 * were taken, how many prices configuration sets), and a reload that changes a price gives new
 * versions while one that changes none keeps the time in force.
 */
public final class PluginPricesApiTest {
    private static final String HEX12 = "[0-9a-f]{12}";

    @TempDir
    Path folder;

    @Test
    void thePluginListNamesThePricesInForceEachProvidersTableAndSinceWhen() throws Exception {
        Path file = folder.resolve("gateway.yaml");
        Files.writeString(file, gpt5InputAt("1.00"));
        try (TestGateway gateway = TestGateway.startWithFile(file, Map.of(), Map.of())) {
            JsonObject first = plugins(gateway);
            String version = first.getString("price_version");
            assertEquals(gateway.gateway().routes().prices().version(), version);
            assertTrue(version.matches(HEX12), version);
            JsonObject openai = prices(first, "openai");
            assertTrue(openai.getString("version").matches(HEX12), openai.toString());
            assertEquals("2026-11-26", openai.getString("as_of"));
            assertEquals("https://openai.com/api/pricing", openai.getString("source"));
            assertEquals(1, openai.getInt("configured"));
            assertTrue(openai.getInt("models") > 1, openai.toString());
            assertEquals(0, prices(first, "anthropic").getInt("configured"));

            JsonObject unchanged = reload(gateway);
            assertEquals(version, unchanged.getString("price_version"));
            assertEquals(first.getJsonNumber("prices_since"), unchanged.getJsonNumber("prices_since"));
            assertEquals(openai.getString("version"), prices(unchanged, "openai").getString("version"));

            Files.writeString(file, gpt5InputAt("1.10"));
            long beforeReload = Instant.now().getEpochSecond();
            JsonObject changed = reload(gateway);
            assertNotEquals(version, changed.getString("price_version"));
            assertTrue(changed.getJsonNumber("prices_since").longValue() >= beforeReload, changed.toString());
            assertNotEquals(openai.getString("version"), prices(changed, "openai").getString("version"));
            assertEquals(prices(first, "anthropic").getString("version"),
                    prices(changed, "anthropic").getString("version"), "another provider's prices did not change");
            assertEquals(changed.getString("price_version"), plugins(gateway).getString("price_version"));
        }
    }

    private static String gpt5InputAt(String input) {
        return """
                providers:
                  openai:
                    models:
                      - id: gpt-5
                        pricing: {input: "%s", output: 10}
                """.formatted(input);
    }

    private static JsonObject plugins(TestGateway gateway) {
        HttpResponse<String> answer = gateway.send(gateway.request("/admin/v1/plugins").build());
        assertEquals(200, answer.statusCode(), answer.body());
        return parse(answer.body());
    }

    private static JsonObject reload(TestGateway gateway) {
        HttpResponse<String> answer = gateway.send(gateway.request("/admin/v1/plugins/reload")
                .POST(HttpRequest.BodyPublishers.noBody()).build());
        assertEquals(200, answer.statusCode(), answer.body());
        return parse(answer.body());
    }

    private static JsonObject prices(JsonObject list, String prefix) {
        return list.getJsonArray("data").getValuesAs(JsonObject.class).stream()
                .filter(plugin -> plugin.getString("prefix").equals(prefix)).findFirst()
                .orElseThrow(() -> new AssertionError("no " + prefix + " in " + list)).getJsonObject("prices");
    }

    private static JsonObject parse(String body) {
        return Json.createReader(new StringReader(body)).readObject();
    }
}
