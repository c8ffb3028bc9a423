package io.aigw.runtime.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.ModelKind;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.metering.TokenUsage;
import io.aigw.runtime.pricing.Cost;
import io.aigw.runtime.pricing.ModelPrice;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.pricing.Rates;
import io.aigw.runtime.pricing.Tier;
import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.testing.LogRecords;
import io.aigw.runtime.testing.TestGateway;
import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.net.URL;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A plugin's catalogue resource, read with JSON-B, as callers meet it in {@code GET /api/v1/models};
 * and the catalogues that stop the gateway from starting, naming the plugin and what is wrong.
 */
public final class CatalogueTest {
    private static final String SOURCE = "widget.jar (x.WidgetPlugin)";
    /** When each catalogue file of these tests says it was last written. */
    private static final Instant WRITTEN = Instant.parse("2025-08-07T17:00:00Z");

    @TempDir
    Path folder;

    @Test
    void everyMemberOfAnEntryReachesTheModelListAndAMissingNameOrOwnerTakesItsDefault() throws IOException {
        String catalogue = """
                [
                  {"id": "widget-1", "name": "Widget \\"One\\" \\u00e9", "context_length": 32000, "owned_by": "widgets",
                   "modalities": {"input": [0.5, {"per": "1M"}]}, "deprecated": null},
                  {"context_length": 8000, "id": "widget-2"}
                ]
                """;

        try (TestGateway gateway = gatewayWith(catalogue)) {
            HttpResponse<String> response = gateway.send(gateway.request("/api/v1/models").build());

            assertEquals(200, response.statusCode(), response.body());
            // Each model is created when its catalogue was made; gateway/auto when the gateway started.
            assertEquals("{\"object\":\"list\",\"data\":["
                    + "{\"id\":\"gateway/auto\",\"object\":\"model\",\"created\":"
                    + ManagementFactory.getRuntimeMXBean().getStartTime() / 1000 + ",\"owned_by\":\"aigw\","
                    + "\"name\":\"Auto: the first available provider's default model\",\"context_length\":32000,\"kind\":\"chat\"},"
                    + "{\"id\":\"widget/widget-1\",\"object\":\"model\",\"created\":" + WRITTEN.getEpochSecond()
                    + ",\"owned_by\":\"widgets\",\"name\":\"Widget \\\"One\\\" \u00e9\",\"context_length\":32000,\"kind\":\"chat\"},"
                    + "{\"id\":\"widget/widget-2\",\"object\":\"model\",\"created\":" + WRITTEN.getEpochSecond()
                    + ",\"owned_by\":\"" + SOURCE + "\",\"name\":\"widget-2\",\"context_length\":8000,\"kind\":\"chat\"}]}",
                    response.body());
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            a fractional context_length | [{"id":"m","name":"M","context_length":1000.5,"owned_by":"x"}] | 'context_length' because of: Expected a whole number, found 1000.5.
            a context_length as text    | [{"id":"m","context_length":"1000"}]                           | 'context_length' because of: Expected a whole number, found "1000".
            a context_length too large  | [{"id":"m","context_length":99999999999999999999}]            | 'context_length' because of: Expected a whole number within 64 bits, found 99999999999999999999.
            an id that is a number      | [{"id":42,"context_length":1000}]                              | 'id' because of: Expected a string, found 42.
            a name that is an object    | [{"id":"m","name":{"en":"M"},"context_length":1000}]           | 'name' because of: Expected a string, found an object.
            no id                       | [{"name":"M","context_length":1000}]                           | entry 1 has no 'id'
            no context_length           | [{"id":"a","context_length":1},{"id":"m"}]                     | entry 2 has no 'context_length'
            an entry that is null       | [null]                                                         | entry 1 has no 'id'
            null                        | null                                                           | it is null
            an object without models    | {"id":"m","context_length":1000}                               | the object has no 'models'
            models that are an object   | {"models":{"id":"m","context_length":1000}}                    | Incorrect position
            prices_as_of not a day      | {"prices_as_of":"26.11.2026","models":[]}                      | 'prices_as_of' must be a day, yyyy-mm-dd, not '26.11.2026'
            prices_as_of a number       | {"prices_as_of":20261126,"models":[]}                          | 'prices_as_of' because of: Expected a string, found 20261126.
            a blank prices_source       | {"prices_source":" ","models":[]}                              | 'prices_source' must say where the prices come from; it is blank
            a rate given as text        | [{"id":"m","context_length":1,"pricing":{"input":"0.10","output":0.4}}] | entry 1 ('m'): 'pricing': 'input' must be a number of US dollars per million tokens, not negative, not the string "0.10"
            a negative rate             | {"models":[{"id":"m","context_length":1,"pricing":{"input":0.1,"output":-0.4}}]} | entry 1 ('m'): 'pricing': 'output' must be a number of US dollars per million tokens, not negative, not the number -0.4
            a price without output      | [{"id":"m","context_length":1,"pricing":{"input":0.1}}]        | entry 1 ('m'): 'pricing': there is no 'output'
            a chat model without output | [{"id":"m","context_length":1,"kind":"chat","pricing":{"input":0.1}}] | entry 1 ('m'): 'pricing': there is no 'output'
            a kind it does not know     | [{"id":"m","context_length":1,"kind":"image"}]                | entry 1 ('m'): 'kind' must be "chat" or "embedding", not "image"
            a misspelt rate             | [{"id":"m","context_length":1,"pricing":{"input":1,"output":2,"cached":0.1}}] | entry 1 ('m'): 'pricing': 'cached' is not a member of a price; its members are input, cached_input, cache_write, output, reasoning, tiers
            a price that is a number    | [{"id":"m","context_length":1,"pricing":0.5}]                  | entry 1 ('m'): 'pricing': a price is an object of rates, not the number 0.5
            tiers that are an object    | [{"id":"m","context_length":1,"pricing":{"input":1,"output":2,"tiers":{"above_prompt_tokens":5}}}] | 'tiers' must be an array of tiers, not an object
            a tier without a threshold  | [{"id":"m","context_length":1,"pricing":{"input":1,"output":2,"tiers":[{"input":2,"output":4}]}}] | entry 1 ('m'): 'pricing': tier 1: there is no 'above_prompt_tokens'
            a fractional threshold      | [{"id":"m","context_length":1,"pricing":{"input":1,"output":2,"tiers":[{"above_prompt_tokens":1.5,"input":2,"output":4}]}}] | tier 1: 'above_prompt_tokens' must be a positive whole number of prompt tokens, not the number 1.5
            a threshold past 64 bits    | [{"id":"m","context_length":1,"pricing":{"input":1,"output":2,"tiers":[{"above_prompt_tokens":1e999999999,"input":2,"output":4}]}}] | tier 1: 'above_prompt_tokens' must be a positive whole number of prompt tokens, not the number 1E+999999999
            tiers out of order          | [{"id":"m","context_length":1,"pricing":{"input":1,"output":2,"tiers":[{"above_prompt_tokens":9,"input":2,"output":4},{"above_prompt_tokens":9,"input":3,"output":6}]}}] | tier 2's 'above_prompt_tokens' (9) must be more than tier 1's (9): tiers go in ascending order
            not JSON                    | [{"id":"m",                                                    | it is not JSON: 
            """)
    void aCatalogueNotInTheDocumentedFormStopsTheStartNamingThePluginAndTheFault(String what, String catalogue,
                                                                                      String fault) throws IOException {
        URL url = write(catalogue);

        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> gatewayWith(url));

        String start = "The model catalogue of " + SOURCE + " (" + url + ") is neither a JSON array of models"
                + " {id, name, context_length, owned_by, pricing} nor an object {prices_as_of, prices_source, models}: ";
        assertTrue(refused.getMessage().startsWith(start), refused.getMessage());
        assertTrue(refused.getMessage().contains(fault), refused.getMessage());
    }

    @Test
    void aCatalogueWrittenBeforePricesLoadsUnchangedAndItsModelsCostAnUnknownAmount() throws IOException {
        URL catalogue = write("""
                [{"id": "widget-1", "name": "Widget 1", "context_length": 32000, "owned_by": "widgets"}]
                """);

        List<Provider> providers = providersWith(catalogue);

        assertEquals(List.of(new ModelEntry("widget-1", "Widget 1", 32000, "widgets")), providers.get(0).catalogue());
        assertEquals(new Cost.Unknown(Cost.Reason.NO_PRICE), PriceBook.of(Provider.prices(providers))
                .cost("widget", "widget-1", new TokenUsage(1000, 100, 1100)));
    }

    @Test
    void aCatalogueThatSaysWhereItsPricesComeFromHasThemReadExactlyAndLogged() throws IOException {
        URL catalogue = write("""
                {"prices_as_of": "2026-11-26", "prices_source": "https://widget.example/pricing", "models": [
                  {"id": "widget-1", "context_length": 32000,
                   "pricing": {"input": 0.1234567890123456789, "reasoning": 3e0, "output": 2.50,
                               "tiers": [{"above_prompt_tokens": 16000, "input": 0.25, "cache_write": 0.3, "output": 5}]}},
                  {"id": "widget-2", "context_length": 8000, "pricing": null}
                ]}
                """);

        try (LogRecords logs = LogRecords.capture()) {
            List<Provider> providers = providersWith(catalogue);

            assertEquals(List.of(new ModelEntry("widget-1", "widget-1", 32000, SOURCE, Optional.of(new ModelPrice(
                            Rates.of(new BigDecimal("0.1234567890123456789"), null, null, new BigDecimal("2.5"),
                                    new BigDecimal("3")),
                            List.of(new Tier(16000, Rates.of(new BigDecimal("0.25"), null, new BigDecimal("0.3"),
                                    new BigDecimal("5"), null)))))),
                    new ModelEntry("widget-2", "widget-2", 8000, SOURCE)), providers.get(0).catalogue());
            assertEquals(List.of("Prices of widget: 1 of 2 models priced, as of 2026-11-26 from"
                    + " https://widget.example/pricing"), logs.messages(Level.INFO, ProviderFactory.class.getName()));
        }
    }

    @Test
    void anEmbeddingModelsPriceMayLeaveOutOutputWhichThenCostsNothing() throws IOException {
        URL catalogue = write("""
                [{"id": "widget-embed", "context_length": 8191, "kind": "embedding", "pricing": {"input": 0.02}},
                 {"id": "widget-1", "context_length": 32000}]
                """);

        List<Provider> providers = providersWith(catalogue);

        assertEquals(new ModelEntry("widget-embed", "widget-embed", 8191, SOURCE, Optional.of(new ModelPrice(
                Rates.of(new BigDecimal("0.02"), null, null, BigDecimal.ZERO, null), List.of())),
                java.util.OptionalLong.empty(), ModelKind.EMBEDDING), providers.get(0).catalogue().get(0));
        assertEquals(ModelKind.CHAT, providers.get(0).catalogue().get(1).kind());
        assertEquals(new Cost.Priced(new Usd(20_000), PriceBook.of(Provider.prices(providers)).version()),
                PriceBook.of(Provider.prices(providers)).cost("widget", "widget-embed", new TokenUsage(1000, 0, 1000)));
    }

    @Test
    void anOutputCapIsReadWhereAnEntryGivesOneAndTheContextLengthStandsInWhereNot() throws IOException {
        URL catalogue = write("""
                [{"id": "widget-1", "context_length": 32000, "max_output_tokens": 4096},
                 {"id": "widget-2", "context_length": 8000}]
                """);

        List<ModelEntry> models = providersWith(catalogue).get(0).catalogue();

        assertEquals(new ModelEntry("widget-1", "widget-1", 32000, SOURCE, Optional.empty(),
                java.util.OptionalLong.of(4096)), models.get(0));
        assertEquals(4096, models.get(0).outputCap());
        assertEquals(8000, models.get(1).outputCap());
        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> providersWith(write("""
                [{"id": "widget-1", "context_length": 32000, "max_output_tokens": 0}]
                """)));
        assertTrue(refused.getMessage().contains("entry 1 ('widget-1'): 'max_output_tokens' must be a whole number"
                + " above 0, not 0"), refused.getMessage());
    }

    private static List<Provider> providersWith(URL catalogue) {
        return new ProviderFactory(new Settings(Config.just(ConfigSources.create(Map.of())), Map.of()))
                .create(List.of(new DiscoveredPlugin(widget(catalogue), SOURCE)));
    }

    private TestGateway gatewayWith(String catalogue) throws IOException {
        return gatewayWith(write(catalogue));
    }

    private static TestGateway gatewayWith(URL catalogue) {
        return TestGateway.start(Map.of("gateway.access-log", "off"), Map.of(),
                List.of(new DiscoveredPlugin(widget(catalogue), SOURCE)), Optional.empty());
    }

    private static ProviderPlugin widget(URL catalogue) {
        return new ProviderPlugin() {
            @Override
            public ProviderDescriptor descriptor() {
                return ProviderDescriptor.builder("widget").defaultModel("widget-1")
                        .baseUrl("https://widget.example/v1").apiKeyVariable("WIDGET_API_KEY")
                        .baseUrlVariable("WIDGET_BASE_URL").build();
            }

            @Override
            public Optional<URL> catalogue() {
                return Optional.of(catalogue);
            }
        };
    }

    private URL write(String catalogue) throws IOException {
        Path file = folder.resolve("models.json");
        Files.writeString(file, catalogue);
        Files.setLastModifiedTime(file, FileTime.from(WRITTEN));
        return file.toUri().toURL();
    }
}
