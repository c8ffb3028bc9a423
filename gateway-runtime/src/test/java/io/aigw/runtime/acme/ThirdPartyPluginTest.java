package io.aigw.runtime.acme;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.plugin.DiscoveredPlugin;
import io.aigw.runtime.plugin.PluginDiscovery;
import io.aigw.runtime.testing.TestGateway;
import java.io.IOException;
import java.net.InetAddress;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/** A plugin that is none of the five is discovered and routed to through the SPI alone. */
public final class ThirdPartyPluginTest {

    @Test
    void theTestPluginIsDiscoveredBesideTheShippedOnes() {
        List<String> found = PluginDiscovery.discover().stream()
                .map(plugin -> plugin.plugin().descriptor().prefix()).sorted().toList();

        assertEquals(List.of("acme", "anthropic", "gemini", "openai", "openrouter", "xai"), found);
        DiscoveredPlugin acme = PluginDiscovery.discover().stream()
                .filter(plugin -> plugin.plugin() instanceof AcmePlugin).findFirst().orElseThrow();
        assertEquals(AcmePlugin.class.getName(), acme.source());
    }

    @Test
    void itsModelsAreRoutedToItsUpstreamWithItsKeyHeadersAndQuirks() throws IOException, InterruptedException {
        try (MockWebServer upstream = new MockWebServer()) {
            upstream.start(InetAddress.getLoopbackAddress(), 0);
            upstream.enqueue(new MockResponse.Builder().body("{\"object\":\"chat.completion\"}").build());
            try (TestGateway gateway = TestGateway.start(Map.of(),
                    Map.of("ACME_API_KEY", "acme-secret", "ACME_BASE_URL", upstream.url("/v1").toString()))) {
                HttpResponse<String> response = gateway.chat("{\"model\":\"acme/acme-small\",\"logit_bias\":{\"50256\":-100},"
                        + "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}],\"seed\":7}");

                assertEquals(200, response.statusCode(), response.body());
                assertEquals("acme", response.headers().firstValue("X-Gateway-Provider").orElseThrow());
            }
            RecordedRequest received = upstream.takeRequest(5, TimeUnit.SECONDS);
            assertEquals("POST /v1/chat/completions HTTP/1.1", received.getRequestLine());
            assertEquals("Bearer acme-secret", received.getHeaders().get("Authorization"));
            assertEquals("2026-01-01", received.getHeaders().get("Acme-Version"));
            assertEquals("{\"model\":\"acme-small\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}],\"seed\":7}",
                    received.getBody().utf8());
        }
    }

    @Test
    void itsCatalogueIsListedInPriorityOrder() {
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of())) {
            String models = gateway.send(gateway.request("/api/v1/models").build()).body();

            // acme's priority, 50, puts it after openrouter's 5.
            int openrouter = models.indexOf("\"openrouter/auto\"");
            int acme = models.indexOf("{\"id\":\"acme/acme-large\",\"name\":\"Acme Large\",\"context_length\":64000,"
                    + "\"owned_by\":\"acme\"}");
            assertTrue(openrouter > 0 && acme > openrouter, models);
        }
    }
}
