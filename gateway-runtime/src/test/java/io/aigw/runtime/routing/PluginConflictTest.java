package io.aigw.runtime.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.plugin.DiscoveredPlugin;
import io.aigw.runtime.plugin.PluginDiscovery;
import io.aigw.runtime.testing.TestGateway;
import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Startup refuses plugin sets that would make routing ambiguous, and names every party. */
public final class PluginConflictTest {

    @Test
    void twoPluginsClaimingOnePrefixRefuseToStart() {
        List<DiscoveredPlugin> plugins = List.of(plugin("openai", false, "openai-a.jar (com.a.OpenAi)"),
                plugin("openai", false, "openai-b.jar (com.b.OpenAi)"));

        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> start(Map.of(), plugins));

        assertEquals("Two plugins claim the model prefix 'openai': openai-a.jar (com.a.OpenAi) and openai-b.jar"
                + " (com.b.OpenAi). Remove one jar from plugins/ or rename one prefix with providers.<name>.prefix.",
                refused.getMessage());
    }

    @Test
    void twoCatchAllPluginsRefuseToStart() {
        List<DiscoveredPlugin> plugins = List.of(plugin("openrouter", true, "openrouter.jar (x.OpenRouter)"),
                plugin("elsewhere", true, "elsewhere.jar (y.Elsewhere)"));

        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> start(Map.of(), plugins));

        assertEquals("Two plugins claim to be the catch-all provider: openrouter.jar (x.OpenRouter) and elsewhere.jar"
                + " (y.Elsewhere). Remove one jar from plugins/.", refused.getMessage());
    }

    @Test
    void aPluginClaimingTheGatewaysOwnPrefixRefusesToStart() {
        ConfigurationException refused = assertThrows(ConfigurationException.class,
                () -> start(Map.of(), List.of(plugin("gateway", false, "rogue.jar (z.Rogue)"))));

        assertEquals("The prefix 'gateway' is the gateway's own, but rogue.jar (z.Rogue) claims it. Rename it with"
                + " providers.gateway.prefix.", refused.getMessage());
    }

    @Test
    void renamingOnePrefixResolvesAClash() {
        List<DiscoveredPlugin> plugins = List.of(plugin("openai", false, "a.jar"), plugin("other", false, "b.jar"));

        try (TestGateway gateway = start(Map.of("providers.other.prefix", "openai2"), plugins)) {
            assertEquals(List.of("openai", "openai2"), gateway.gateway().routing().byPriority().stream()
                    .map(provider -> provider.prefix()).toList());
        }
    }

    @Test
    void withoutACatchAllAnUnclaimedPrefixIsModelNotFound() {
        List<DiscoveredPlugin> withoutOpenRouter = new ArrayList<>(PluginDiscovery.discover());
        withoutOpenRouter.removeIf(plugin -> plugin.plugin().descriptor().catchAll());

        try (TestGateway gateway = start(Map.of(), withoutOpenRouter)) {
            HttpResponse<String> response = gateway.chat("{\"model\":\"meta-llama/llama-3-8b\",\"messages\":[]}");

            assertEquals(404, response.statusCode());
            assertEquals("{\"error\":{\"message\":\"The model 'meta-llama/llama-3-8b' does not exist: no installed"
                    + " provider serves its prefix.\",\"type\":\"invalid_request_error\",\"param\":\"model\","
                    + "\"code\":\"model_not_found\"}}", response.body());
        }
    }

    private static TestGateway start(Map<String, String> config, List<DiscoveredPlugin> plugins) {
        return TestGateway.start(config, Map.of(), plugins, Optional.empty());
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
