package io.aigw.runtime.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.plugin.gemini.GeminiPlugin;
import io.aigw.plugin.openai.OpenAiPlugin;
import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.ModelKind;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.pricing.ModelPrice;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.pricing.Rates;
import io.aigw.runtime.pricing.Tier;
import io.aigw.runtime.testing.LogRecords;
import io.aigw.runtime.testing.TestGateway;
import io.helidon.common.media.type.MediaTypes;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;

/** An operator's prices in {@code providers.<name>.models}, which win over a plugin's without a rebuilt jar. */
final class PriceOverridesTest {

    @Test
    void aPriceSetForAShippedModelReplacesItsPriceAndKeepsTheRestOfTheEntry() {
        List<Provider> providers = providers(Map.of(
                "providers.openai.models.0.id", "gpt-5",
                "providers.openai.models.0.pricing.input", "1.10",
                "providers.openai.models.0.pricing.cached-input", "0.11",
                "providers.openai.models.0.pricing.output", "9"));

        ModelEntry gpt5 = model(providers, "openai", "gpt-5");
        assertEquals(new ModelEntry("gpt-5", "GPT-5", 400000, "openai", Optional.of(new ModelPrice(
                Rates.of(usd("1.1"), usd("0.11"), null, usd("9"), null), List.of())),
                java.util.OptionalLong.of(128000)), gpt5);
        assertEquals(Optional.of(new ModelPrice(Rates.of(usd("0.25"), usd("0.025"), null, usd("2"), null), List.of())),
                model(providers, "openai", "gpt-5-mini").price(), "the models configuration leaves alone keep theirs");
    }

    @Test
    void aModelThePluginLacksIsAddedWithItsPriceTiersIncludedFromAYamlFile() {
        String yaml = """
                providers:
                  gemini:
                    models:
                      - id: gemini-2.5-pro-tuned
                        context-length: 1048576
                        pricing:
                          input: 1.3
                          output: "10.000000000000000001"
                          reasoning: 12
                          tiers:
                            - above-prompt-tokens: 200000
                              input: 2.6
                              cache-write: 3
                              output: 15
                """;

        ModelEntry tuned = model(providers(yaml), "gemini", "gemini-2.5-pro-tuned");

        assertEquals(new ModelEntry("gemini-2.5-pro-tuned", "gemini-2.5-pro-tuned", 1048576, "gemini", Optional.of(
                new ModelPrice(Rates.of(usd("1.3"), null, null, usd("10.000000000000000001"), usd("12")),
                        List.of(new Tier(200000, Rates.of(usd("2.6"), null, usd("3"), usd("15"), null)))))), tuned);
    }

    @Test
    void aConfiguredEmbeddingModelMayBePricedByItsInputAloneAndAShippedOneKeepsItsKind() {
        List<Provider> providers = providers(Map.of(
                "providers.openai.models.0.id", "my-embedder",
                "providers.openai.models.0.context-length", "8191",
                "providers.openai.models.0.kind", "embedding",
                "providers.openai.models.0.pricing.input", "0.05",
                "providers.openai.models.1.id", "text-embedding-3-small",
                "providers.openai.models.1.name", "Small embeddings"));

        assertEquals(new ModelEntry("my-embedder", "my-embedder", 8191, "openai", Optional.of(new ModelPrice(
                Rates.of(usd("0.05"), null, null, usd("0"), null), List.of())), java.util.OptionalLong.empty(),
                ModelKind.EMBEDDING), model(providers, "openai", "my-embedder"));
        assertEquals(ModelKind.EMBEDDING, model(providers, "openai", "text-embedding-3-small").kind());
        ConfigurationException chat = assertThrows(ConfigurationException.class, () -> providers(Map.of(
                "providers.openai.models.0.id", "my-embedder",
                "providers.openai.models.0.context-length", "8191",
                "providers.openai.models.0.kind", "embeddings")));
        assertEquals("The 'kind' of the entry 'my-embedder' of providers.openai.models is 'embeddings': 'kind' must"
                + " be \"chat\" or \"embedding\".", chat.getMessage());
    }

    @Test
    void aModelThePluginLacksNeedsAContextLength() {
        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> providers(Map.of(
                "providers.openai.models.0.id", "my-tune",
                "providers.openai.models.0.pricing.input", "1",
                "providers.openai.models.0.pricing.output", "2")));

        assertEquals("The entry 'my-tune' of providers.openai.models is not in the plugin's catalogue, so it needs a"
                + " 'context-length'.", refused.getMessage());
    }

    @Test
    void aPriceThatCannotBeUsedStopsTheStartNamingTheKeyAndTheFault() {
        Map<Map<String, String>, String> faults = Map.of(
                Map.of("pricing.input", "cheap", "pricing.output", "2"),
                "'input' must be a number of US dollars per million tokens, not negative, not the string \"cheap\"",
                Map.of("pricing.input", "1", "pricing.output", "2", "pricing.cached_input", "0.1"),
                "'cached_input' is not a member of a price; its members are input, cached-input, cache-write, output,"
                        + " reasoning, tiers",
                Map.of("pricing.input", "1"),
                "there is no 'output'",
                Map.of("pricing.input", "1", "pricing.output", "2", "pricing.tiers.0.input", "2",
                        "pricing.tiers.0.output", "4"),
                "tier 1: there is no 'above-prompt-tokens'",
                Map.of("pricing", "1.25"),
                "a price is an object of rates, not the number 1.25");
        faults.forEach((entry, fault) -> {
            Map<String, String> config = new java.util.HashMap<>(Map.of("providers.openai.models.0.id", "gpt-5"));
            entry.forEach((key, value) -> config.put("providers.openai.models.0." + key, value));

            ConfigurationException refused = assertThrows(ConfigurationException.class, () -> providers(config));

            assertEquals("The 'pricing' of the entry 'gpt-5' of providers.openai.models cannot be used: " + fault,
                    refused.getMessage());
        });
    }

    @Test
    void theStartLogsThePriceVersionWhichAConfiguredPriceChanges() {
        String shipped = startedPriceVersion(Map.of());
        String configured = startedPriceVersion(Map.of(
                "providers.openai.models.0.id", "gpt-5",
                "providers.openai.models.0.pricing.input", "1.00",
                "providers.openai.models.0.pricing.output", "10"));

        assertEquals(shipped, startedPriceVersion(Map.of()));
        assertNotEquals(shipped, configured);
        List<Provider> discovered = new ProviderFactory(new Settings(Config.just(ConfigSources.create(Map.of())),
                Map.of())).create(PluginDiscovery.discover());
        assertEquals(PriceBook.of(Provider.prices(discovered)).version(), shipped);
    }

    /** Starts a gateway with the shipped plugins and returns the price version its start logged. */
    private static String startedPriceVersion(Map<String, String> config) {
        Map<String, String> all = new java.util.HashMap<>(config);
        all.put("gateway.access-log", "off");
        try (LogRecords logs = LogRecords.capture(); TestGateway gateway = TestGateway.start(all, Map.of())) {
            List<String> lines = logs.messages(Level.INFO).stream()
                    .filter(line -> line.startsWith("Price table ")).toList();
            assertEquals(1, lines.size(), lines.toString());
            assertTrue(lines.get(0).endsWith(": 42 models priced"), lines.get(0));
            return lines.get(0).substring("Price table ".length(), "Price table ".length() + 12);
        }
    }

    private static ModelEntry model(List<Provider> providers, String provider, String id) {
        return providers.stream().filter(p -> p.name().equals(provider)).findFirst().orElseThrow()
                .catalogue().stream().filter(model -> model.id().equals(id)).findFirst().orElseThrow();
    }

    private static List<Provider> providers(Map<String, String> config) {
        return providers(Config.just(ConfigSources.create(config)));
    }

    private static List<Provider> providers(String yaml) {
        return providers(Config.builder(ConfigSources.create(yaml, MediaTypes.APPLICATION_X_YAML))
                .disableEnvironmentVariablesSource().disableSystemPropertiesSource().build());
    }

    private static List<Provider> providers(Config config) {
        return new ProviderFactory(new Settings(config, Map.of())).create(List.of(
                DiscoveredPlugin.of(new OpenAiPlugin()), DiscoveredPlugin.of(new GeminiPlugin())));
    }

    private static BigDecimal usd(String rate) {
        return new BigDecimal(rate);
    }
}
