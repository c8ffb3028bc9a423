package io.aigw.runtime.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.plugin.PluginDiscovery;
import io.aigw.runtime.plugin.PriceOrigin;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.plugin.ProviderFactory;
import io.aigw.runtime.testing.TestGateway;
import io.aigw.spi.UpstreamApi;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which provider a model id goes to, and what that provider is asked for. */
public final class RoutingTableTest {

    @ParameterizedTest(name = "{0} goes to {1} as {2}")
    @CsvSource({
            "openai/gpt-5, openai, gpt-5",
            "gemini/gemini-2.5-pro, gemini, gemini-2.5-pro",
            "anthropic/claude-sonnet-4-5, anthropic, claude-sonnet-4-5",
            "xai/grok-4, xai, grok-4",
            "acme/big-model, acme, big-model",
            // Only the first slash separates the prefix; the rest is the upstream's business.
            "openai/ft:gpt-4o:org/custom, openai, ft:gpt-4o:org/custom",
            // The catch-all keeps ids as they are: its own prefix, unclaimed prefixes, bare ids.
            "openrouter/auto, openrouter, openrouter/auto",
            "meta-llama/llama-3-8b, openrouter, meta-llama/llama-3-8b",
            "gpt-4o, openrouter, gpt-4o",
            // Prefixes are case-sensitive: OpenAI/ is not openai/.
            "OpenAI/gpt-5, openrouter, OpenAI/gpt-5"})
    void aModelIdGoesToTheProviderClaimingItsPrefix(String model, String provider, String upstreamModel) {
        Route route = table(Map.of()).route(model);

        assertEquals(provider, route.provider().name());
        assertEquals(upstreamModel, route.upstreamModel());
    }

    @Test
    void aRenamedPrefixRoutesUnderItsNewNameAndTheOldOneFallsToTheCatchAll() {
        RoutingTable table = table(Map.of("providers.openai.prefix", "oai"));

        assertEquals("openai", table.route("oai/gpt-5").provider().name());
        assertEquals("gpt-5", table.route("oai/gpt-5").upstreamModel());
        assertEquals("openrouter", table.route("openai/gpt-5").provider().name());
        assertEquals("openai/gpt-5", table.route("openai/gpt-5").upstreamModel());
    }

    @Test
    void providersAreOrderedByPriorityWhichConfigurationMayChange() {
        assertEquals(List.of("openai", "gemini", "anthropic", "xai", "openrouter", "acme"), order(table(Map.of())));
        assertEquals(List.of("acme", "openai", "gemini", "anthropic", "openrouter"),
                order(table(Map.of("providers.acme.priority", "0", "providers.xai.enabled", "false"))));
    }

    @Test
    void gatewayAutoGoesAlongTheChainOfUsableProvidersByPriorityEachAskedForItsDefaultModel() {
        RoutingTable table = table(Map.of("providers.gemini.default-model", "gemini-2.5-pro"));

        AutoChain chain = assertInstanceOf(AutoChain.class, table.destination(RoutingTable.AUTO_MODEL, UpstreamApi.CHAT_COMPLETIONS));
        List<String> routes = chain.routes(provider -> !provider.name().equals("openai")).stream()
                .map(route -> route.provider().name() + " " + route.upstreamModel())
                .toList();

        assertEquals(List.of("gemini gemini-2.5-pro", "anthropic claude-haiku-4-5", "xai grok-4",
                "openrouter openrouter/auto", "acme big-model"), routes);
        assertEquals(List.of(), chain.routes(provider -> false));
    }

    @Test
    void anyOtherModelGoesAlongItsOneRoute() {
        Route route = assertInstanceOf(Route.class, table(Map.of()).destination("openai/gpt-5", UpstreamApi.CHAT_COMPLETIONS));

        assertEquals("openai", route.provider().name());
        assertEquals("gpt-5", route.upstreamModel());
    }

    @Test
    void aPrefixWithNoModelAfterItIsRefusedWith400() {
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of())) {
            HttpResponse<String> response = gateway.chat("{\"model\":\"openai/\",\"messages\":[]}");

            assertEquals(400, response.statusCode());
            assertEquals("{\"error\":{\"message\":\"The model 'openai/' names a provider but no model; write it as"
                    + " openai/<model>.\",\"type\":\"invalid_request_error\",\"param\":\"model\",\"code\":null}}",
                    response.body());
        }
    }

    @Test
    void theGatewaysOwnPrefixOffersOnlyAutoEvenWithACatchAll() {
        try (TestGateway gateway = TestGateway.start(Map.of(), Map.of())) {
            HttpResponse<String> response = gateway.chat("{\"model\":\"gateway/fastest\",\"messages\":[]}");

            assertEquals(404, response.statusCode());
            assertEquals("{\"error\":{\"message\":\"The model 'gateway/fastest' does not exist: no installed provider"
                    + " serves its prefix.\",\"type\":\"invalid_request_error\",\"param\":\"model\","
                    + "\"code\":\"model_not_found\"}}", response.body());
        }
    }

    @Test
    void twoPluginsClaimingToBeTheHomeOfOneApiAreRefusedNamingBoth() {
        List<Provider> shipped = new ProviderFactory(new Settings(Config.just(ConfigSources.create(Map.of())),
                Map.of())).create(PluginDiscovery.discover());
        Provider anthropic = shipped.stream().filter(provider -> provider.name().equals("anthropic")).findFirst()
                .orElseThrow();
        Provider another = new Provider("claude", "claude", true, false, "claude-sonnet-4-5", 9, anthropic.baseUrl(),
                anthropic.keys(), "CLAUDE_API_KEY", Map.of(), Set.of(), List.of(), PriceOrigin.UNSTATED, 0, "claude.jar (x.ClaudePlugin)",
                anthropic.apis(), Set.of(UpstreamApi.MESSAGES));
        List<Provider> providers = new ArrayList<>(shipped);
        providers.add(another);

        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> RoutingTable.of(providers));

        assertEquals("Two plugins claim to be the home of MESSAGES model ids without a provider: " + anthropic.source()
                + " and claude.jar (x.ClaudePlugin). Remove one jar from plugins/ or switch one off with"
                + " providers.claude.enabled=false.", refused.getMessage());
    }

    private static RoutingTable table(Map<String, String> config) {
        Settings settings = new Settings(Config.just(ConfigSources.create(config)), Map.of());
        return RoutingTable.of(new ProviderFactory(settings).create(PluginDiscovery.discover()));
    }

    private static List<String> order(RoutingTable table) {
        return table.byPriority().stream().map(provider -> provider.name()).toList();
    }
}
