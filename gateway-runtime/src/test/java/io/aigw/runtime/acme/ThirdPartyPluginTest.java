package io.aigw.runtime.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.plugin.DiscoveredPlugin;
import io.aigw.runtime.plugin.PluginDiscovery;
import io.aigw.runtime.testing.TestGateway;
import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import java.io.IOException;
import java.net.InetAddress;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A plugin that is none of the five is discovered and routed to through the SPI alone. */
public final class ThirdPartyPluginTest {
    private static final String ANSWER = "{\"id\":\"acme-1\",\"object\":\"chat.completion\",\"created\":1700000000,"
            + "\"model\":\"big-model\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"Beep\"},"
            + "\"finish_reason\":\"stop\"}]}";

    @Test
    void theTestPluginIsDiscoveredBesideTheShippedOnes() {
        List<DiscoveredPlugin> discovered = PluginDiscovery.discover();
        List<String> prefixes = discovered.stream()
                .map(plugin -> plugin.plugin().descriptor().prefix()).sorted().toList();

        assertEquals(List.of("acme", "anthropic", "gemini", "openai", "openrouter", "xai"), prefixes);
        DiscoveredPlugin acme = discovered.stream()
                .filter(plugin -> plugin.plugin() instanceof AcmePlugin).findFirst().orElseThrow();
        // Loaded from the test classes folder, not a jar, so the class name is its source.
        assertEquals(AcmePlugin.class.getName(), acme.source());
        assertFalse(acme.plugin().descriptor().catchAll());
    }

    @Test
    void itsModelsAreRoutedToItsUpstreamWithItsKeyHeaderAndQuirkAndEveryOtherByteIntact() throws Exception {
        String sent = "{\n"
                + "  \"model\" : \"acme/big-model\",\n"
                + "  \"logit_bias\": {\"50256\": -100},\n"
                + "  \"messages\": [ {\"role\":\"user\", \"content\":\"Gr\u00fc\u00dfe \\u2014 \u2713\"} ],\n"
                + "  \"temperature\": 0.70,\n"
                + "  \"max_tokens\": 1E2,\n"
                + "  \"metadata\": {\"b\": 2, \"a\": 1}\n"
                + "}";
        try (MockWebServer upstream = new MockWebServer()) {
            upstream.start(InetAddress.getLoopbackAddress(), 0);
            upstream.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json").body(ANSWER)
                    .build());
            try (TestGateway gateway = TestGateway.start(Map.of(),
                    Map.of("ACME_API_KEY", "acme-secret", "ACME_BASE_URL", upstream.url("/v1").toString()))) {
                HttpResponse<String> response = gateway.chat(sent);

                assertEquals(200, response.statusCode(), response.body());
                assertEquals(ANSWER, response.body());
                assertEquals("acme", response.headers().firstValue("X-Gateway-Provider").orElseThrow());
            }
            RecordedRequest received = upstream.takeRequest(5, TimeUnit.SECONDS);
            assertEquals("POST /v1/chat/completions HTTP/1.1", received.getRequestLine());
            assertEquals(List.of("Bearer acme-secret"), received.getHeaders().values("Authorization"));
            assertEquals("2026-01-01", received.getHeaders().get("Acme-Version"));
            assertEquals("application/json", received.getHeaders().get("Content-Type"));
            assertEquals("{\n"
                    + "  \"model\" : \"big-model\",\n"
                    + "  \"messages\": [ {\"role\":\"user\", \"content\":\"Gr\u00fc\u00dfe \\u2014 \u2713\"} ],\n"
                    + "  \"temperature\": 0.70,\n"
                    + "  \"max_tokens\": 1E2,\n"
                    + "  \"metadata\": {\"b\": 2, \"a\": 1}\n"
                    + "}", new String(received.getBody().toByteArray(), StandardCharsets.UTF_8));
            assertEquals(1, upstream.getRequestCount());
        }
    }

    @Test
    void withoutItsKeyItsModelsGet400NamingTheVariable() {
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of())) {
            HttpResponse<String> response = gateway.chat(
                    "{\"model\":\"acme/big-model\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}");

            assertEquals(400, response.statusCode(), response.body());
            assertTrue(response.body().contains("ACME_API_KEY"), response.body());
            assertTrue(response.body().contains("\"code\":\"provider_not_configured\""), response.body());
        }
    }

    @Test
    void itsCatalogueIsListedWithItsPrefixInPriorityOrder() {
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of())) {
            HttpResponse<String> response = gateway.send(gateway.request("/api/v1/models").build());

            assertEquals(200, response.statusCode());
            String models = response.body();
            // acme's priority, 50, puts it after openrouter's 5: last.
            int openrouter = models.indexOf("{\"id\":\"openrouter/auto\"");
            int big = at(models, "{\"id\":\"acme/big-model\",\"object\":\"model\",\"created\":\\d+,\"owned_by\":\"acme\","
                    + "\"name\":\"Acme Big\",\"context_length\":64000,\"kind\":\"chat\"}");
            int small = at(models, "{\"id\":\"acme/small-model\",\"object\":\"model\",\"created\":\\d+,"
                    + "\"owned_by\":\"acme\",\"name\":\"Acme Small\",\"context_length\":16000,\"kind\":\"chat\"}]}$");
            assertTrue(openrouter > 0 && big > openrouter && small > big, models);
        }
    }

    /** Where {@code pattern} (literal but for {@code \\d+} and {@code $}) first matches, or -1. */
    private static int at(String text, String pattern) {
        Matcher match = Pattern.compile(pattern.replace("{", "\\{").replace("[", "\\[").replace("]", "\\]"))
                .matcher(text);
        return match.find() ? match.start() : -1;
    }
}
