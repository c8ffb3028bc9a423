package io.aigw.runtime.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aigw.runtime.acme.AcmePlugin;
import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.plugin.DiscoveredPlugin;
import io.aigw.runtime.plugin.PluginDiscovery;
import io.aigw.runtime.testing.TestGateway;
import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import java.io.IOException;
import java.net.InetAddress;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;

/** Startup refuses plugin sets that would make routing ambiguous, names every party, and says what resolves it. */
public final class PluginConflictTest {
    private static final String ANSWER = "{\"object\":\"chat.completion\",\"choices\":[]}";

    @Test
    void twoPluginsDeclaringOnePrefixRefuseToStartNamingBothJars() {
        List<DiscoveredPlugin> plugins = List.of(plugin("openai", false, "openai-a.jar (com.a.OpenAi)"),
                plugin("openai", false, "openai-b.jar (com.b.OpenAi)"));

        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> start(Map.of(), plugins));

        assertEquals("Two plugins claim the model prefix 'openai': openai-a.jar (com.a.OpenAi) and openai-b.jar"
                + " (com.b.OpenAi). Both declare it, so providers.openai.* would configure both alike; remove one jar"
                + " from plugins/.", refused.getMessage());
    }

    @Test
    void aThirdPartyPluginDeclaringAShippedPrefixIsRefusedNamingTheShippedPluginToo() {
        List<DiscoveredPlugin> plugins = new ArrayList<>(PluginDiscovery.discover());
        plugins.add(plugin("anthropic", false, "claude-proxy.jar (com.example.ClaudeProxy)"));
        String shipped = plugins.stream().filter(plugin -> plugin.plugin().descriptor().prefix().equals("anthropic"))
                .findFirst().orElseThrow().source();

        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> start(Map.of(), plugins));

        assertEquals("Two plugins claim the model prefix 'anthropic': " + shipped + " and claude-proxy.jar"
                + " (com.example.ClaudeProxy). Both declare it, so providers.anthropic.* would configure both alike;"
                + " remove one jar from plugins/.", refused.getMessage());
    }

    @Test
    void twoCatchAllPluginsRefuseToStartNamingBoth() {
        List<DiscoveredPlugin> plugins = List.of(plugin("openrouter", true, "openrouter.jar (x.OpenRouter)"),
                plugin("elsewhere", true, "elsewhere.jar (y.Elsewhere)"));

        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> start(Map.of(), plugins));

        assertEquals("Two plugins claim to be the catch-all provider: openrouter.jar (x.OpenRouter) and elsewhere.jar"
                + " (y.Elsewhere). Remove one jar from plugins/ or switch one off with"
                + " providers.elsewhere.enabled=false.", refused.getMessage());
    }

    @Test
    void switchingASecondCatchAllOffLetsTheGatewayStart() {
        List<DiscoveredPlugin> plugins = List.of(plugin("openrouter", true, "openrouter.jar (x.OpenRouter)"),
                plugin("elsewhere", true, "elsewhere.jar (y.Elsewhere)"));

        try (TestGateway gateway = start(Map.of("providers.elsewhere.enabled", "false"), plugins)) {
            assertEquals("openrouter", gateway.gateway().routing().catchAll().orElseThrow().prefix());
        }
    }

    @Test
    void aPluginClaimingTheGatewaysOwnPrefixRefusesToStart() {
        ConfigurationException refused = assertThrows(ConfigurationException.class,
                () -> start(Map.of(), List.of(plugin("gateway", false, "rogue.jar (z.Rogue)"))));

        assertEquals("The prefix 'gateway' is the gateway's own, but rogue.jar (z.Rogue) claims it. Rename it with"
                + " providers.gateway.prefix.", refused.getMessage());
    }

    @Test
    void renamingThePluginThatClaimsGatewayLetsItServeUnderItsNewPrefix() throws IOException, InterruptedException {
        try (MockWebServer upstream = new MockWebServer()) {
            upstream.start(InetAddress.getLoopbackAddress(), 0);
            upstream.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json").body(ANSWER)
                    .build());
            try (TestGateway gateway = TestGateway.start(Map.of("providers.gateway.prefix", "gw"),
                    Map.of("GATEWAY_API_KEY", "gw-secret", "GATEWAY_BASE_URL", upstream.url("/v1").toString()),
                    List.of(plugin("gateway", false, "rogue.jar (z.Rogue)")), Optional.empty())) {
                assertEquals(200, gateway.chat("{\"model\":\"gw/model-1\",\"messages\":[]}").statusCode());
                assertEquals(404, gateway.chat("{\"model\":\"gateway/model-1\",\"messages\":[]}").statusCode());
            }
            assertEquals("{\"model\":\"model-1\",\"messages\":[]}",
                    upstream.takeRequest(5, TimeUnit.SECONDS).getBody().utf8());
            assertEquals(1, upstream.getRequestCount());
        }
    }

    @Test
    void renamingOnePrefixOntoAnothersRefusesToStartNamingBothAndTheirSettings() {
        List<DiscoveredPlugin> plugins = List.of(shipped("openai"), shipped("acme"));

        ConfigurationException refused = assertThrows(ConfigurationException.class,
                () -> start(Map.of("providers.acme.prefix", "openai"), plugins));

        assertEquals("Two plugins claim the model prefix 'openai': " + plugins.get(0).source() + " and "
                + AcmePlugin.class.getName() + " (renamed from 'acme' by providers.acme.prefix). Rename one with"
                + " providers.openai.prefix or providers.acme.prefix.", refused.getMessage());
    }

    @Test
    void renamingTheOtherPrefixResolvesTheClashAndEachPrefixReachesItsOwnUpstream() throws Exception {
        try (MockWebServer openai = new MockWebServer(); MockWebServer acme = new MockWebServer()) {
            openai.start(InetAddress.getLoopbackAddress(), 0);
            acme.start(InetAddress.getLoopbackAddress(), 0);
            openai.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json").body(ANSWER).build());
            acme.enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json").body(ANSWER).build());
            try (TestGateway gateway = TestGateway.start(
                    Map.of("providers.acme.prefix", "openai", "providers.openai.prefix", "openai-direct"),
                    Map.of("OPENAI_API_KEY", "sk-openai", "OPENAI_BASE_URL", openai.url("/v1").toString(),
                            "ACME_API_KEY", "acme-secret", "ACME_BASE_URL", acme.url("/v1").toString()),
                    List.of(shipped("openai"), shipped("acme")), Optional.empty())) {
                HttpResponse<String> viaAcme = gateway.chat("{\"model\":\"openai/big-model\",\"messages\":[]}");
                HttpResponse<String> viaOpenAi = gateway.chat("{\"model\":\"openai-direct/gpt-5\",\"messages\":[]}");

                assertEquals(200, viaAcme.statusCode(), viaAcme.body());
                assertEquals(200, viaOpenAi.statusCode(), viaOpenAi.body());
            }
            assertEquals(1, acme.getRequestCount());
            assertEquals(1, openai.getRequestCount());
            RecordedRequest toAcme = acme.takeRequest(5, TimeUnit.SECONDS);
            assertEquals("{\"model\":\"big-model\",\"messages\":[]}", toAcme.getBody().utf8());
            assertEquals("Bearer acme-secret", toAcme.getHeaders().get("Authorization"));
            RecordedRequest toOpenAi = openai.takeRequest(5, TimeUnit.SECONDS);
            assertEquals("{\"model\":\"gpt-5\",\"messages\":[]}", toOpenAi.getBody().utf8());
            assertEquals("Bearer sk-openai", toOpenAi.getHeaders().get("Authorization"));
        }
    }

    @Test
    void withoutACatchAllAnUnclaimedPrefixIsModelNotFound() {
        List<DiscoveredPlugin> withoutOpenRouter = new ArrayList<>(PluginDiscovery.discover());
        withoutOpenRouter.removeIf(plugin -> plugin.plugin().descriptor().catchAll());

        try (TestGateway gateway = start(Map.of(), withoutOpenRouter)) {
            HttpResponse<String> prefixed = gateway.chat("{\"model\":\"meta-llama/llama-3-8b\",\"messages\":[]}");
            HttpResponse<String> bare = gateway.chat("{\"model\":\"gpt-4o\",\"messages\":[]}");

            assertEquals(404, prefixed.statusCode());
            assertEquals("application/json", prefixed.headers().firstValue("Content-Type").orElseThrow());
            assertEquals("{\"error\":{\"message\":\"The model 'meta-llama/llama-3-8b' does not exist: no installed"
                    + " provider serves its prefix.\",\"type\":\"invalid_request_error\",\"param\":\"model\","
                    + "\"code\":\"model_not_found\"}}", prefixed.body());
            assertEquals(404, bare.statusCode());
            assertEquals("{\"error\":{\"message\":\"The model 'gpt-4o' does not exist: no installed provider serves"
                    + " its prefix.\",\"type\":\"invalid_request_error\",\"param\":\"model\","
                    + "\"code\":\"model_not_found\"}}", bare.body());
        }
    }

    private static TestGateway start(Map<String, String> config, List<DiscoveredPlugin> plugins) {
        return TestGateway.start(config, Map.of(), plugins, Optional.empty());
    }

    /** One of the plugins on the test class path, as discovery finds it. */
    private static DiscoveredPlugin shipped(String prefix) {
        return PluginDiscovery.discover().stream()
                .filter(plugin -> plugin.plugin().descriptor().prefix().equals(prefix)).findFirst().orElseThrow();
    }

    private static DiscoveredPlugin plugin(String prefix, boolean catchAll, String source) {
        ProviderPlugin plugin = () -> ProviderDescriptor.builder(prefix)
                .stripsPrefix(!catchAll)
                .catchAll(catchAll)
                .defaultModel("default")
                .baseUrl("https://" + prefix + ".example/v1")
                .apiKeyVariable(prefix.toUpperCase() + "_API_KEY")
                .baseUrlVariable(prefix.toUpperCase() + "_BASE_URL")
                .build();
        return new DiscoveredPlugin(plugin, source);
    }
}
