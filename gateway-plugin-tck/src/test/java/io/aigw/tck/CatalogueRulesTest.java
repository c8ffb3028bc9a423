package io.aigw.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aigw.spi.ProviderDescriptor;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The catalogue check on catalogues with prices: what it accepts, and every problem it names. */
final class CatalogueRulesTest {
    private static final ProviderDescriptor ACME = ProviderDescriptor.builder("acme").defaultModel("acme-large")
            .baseUrl("https://api.acme.example/v1").apiKeyVariable("ACME_API_KEY").baseUrlVariable("ACME_BASE_URL")
            .build();

    @Test
    void aCatalogueSayingWhereItsPricesComeFromWithEveryRateAndTiersPasses() {
        assertEquals(List.of(), problems("""
                {"prices_as_of": "2026-11-26", "prices_source": "https://acme.example/pricing", "models": [
                  {"id": "acme-large", "name": "Acme Large", "context_length": 200000, "owned_by": "acme",
                   "pricing": {"input": 3.00, "cached_input": 0.30, "cache_write": 3.75, "output": 15, "reasoning": 0,
                               "tiers": [{"above_prompt_tokens": 200000, "input": 6, "output": 22.5},
                                         {"above_prompt_tokens": 500000, "input": 9e0, "output": 30}]}},
                  {"id": "acme-small", "name": "Acme Small", "context_length": 32768, "max_output_tokens": 4096,
                   "owned_by": "acme"}
                ]}
                """));
        assertEquals(List.of(), problems("""
                [{"id": "acme-small", "name": "Acme Small", "context_length": 32768, "owned_by": "acme",
                  "pricing": {"input": 0.1, "output": 0.4}}]
                """));
        // An embedding model writes no tokens: its price may leave out output.
        assertEquals(List.of(), problems("""
                [{"id": "acme-embed", "name": "Acme Embed", "context_length": 8192, "owned_by": "acme",
                  "kind": "embedding", "pricing": {"input": 0.02}}]
                """));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            a rate as text        | "pricing": {"input": "0.10", "output": 0.4}                            | entry 1 ('m'): 'pricing': 'input' must be a number of US dollars per million tokens, not negative, not the string "0.10"
            a negative rate       | "pricing": {"input": 0.1, "output": 0.4, "cached_input": -0.01}       | entry 1 ('m'): 'pricing': 'cached_input' must be a number of US dollars per million tokens, not negative, not the number -0.01
            no input, no output   | "pricing": {"reasoning": 1}                                            | entry 1 ('m'): 'pricing' has no 'input' ++ entry 1 ('m'): 'pricing' has no 'output'
            a misspelt rate       | "pricing": {"input": 1, "output": 2, "cache_read": 0.1}               | entry 1 ('m'): 'pricing': 'cache_read' is not a member of a price; its members are input, cached_input, cache_write, output, reasoning and tiers
            a price as a number   | "pricing": 0.5                                                         | entry 1 ('m'): 'pricing' must be an object of rates, not the number 0.5
            tiers as an object    | "pricing": {"input": 1, "output": 2, "tiers": {}}                      | entry 1 ('m'): 'pricing': 'tiers' must be an array of {above_prompt_tokens, ...rates}, not an object
            a tier as a number    | "pricing": {"input": 1, "output": 2, "tiers": [5]}                     | entry 1 ('m'): 'pricing': tier 1 must be an object {above_prompt_tokens, ...rates}, not the number 5
            a tier's threshold    | "pricing": {"input": 1, "output": 2, "tiers": [{"input": 2, "output": 4}, {"above_prompt_tokens": 0, "input": 2, "output": 4}]} | entry 1 ('m'): 'pricing': tier 1 has no 'above_prompt_tokens' ++ entry 1 ('m'): 'pricing': tier 2: 'above_prompt_tokens' must be a positive whole number of prompt tokens, not the number 0
            tiers out of order    | "pricing": {"input": 1, "output": 2, "tiers": [{"above_prompt_tokens": 9, "input": 2, "output": 4}, {"above_prompt_tokens": 8, "input": 3, "output": 6}]} | entry 1 ('m'): 'pricing': tier 2: 'above_prompt_tokens' (8) must be more than the tier before's (9): tiers go in ascending order
            a chat model's price  | "kind": "chat", "pricing": {"input": 1}                                 | entry 1 ('m'): 'pricing' has no 'output'
            a kind of its own     | "kind": "image"                                                        | entry 1 ('m'): 'kind' must be "chat" or "embedding", not the string "image"
            an embedding's input  | "kind": "embedding", "pricing": {"output": 1}                          | entry 1 ('m'): 'pricing' has no 'input'
            an output cap of 0    | "max_output_tokens": 0                                                 | entry 1 ('m'): 'max_output_tokens' must be a positive whole number of tokens, not the number 0
            a tier's rates        | "pricing": {"input": 1, "output": 2, "tiers": [{"above_prompt_tokens": 9, "input": 2, "tiers": []}]} | entry 1 ('m'): 'pricing': tier 1: 'tiers' is not a member of a price; its members are input, cached_input, cache_write, output, reasoning and above_prompt_tokens ++ entry 1 ('m'): 'pricing': tier 1 has no 'output'
            """)
    void brokenPricingIsNamedProblemByProblem(String what, String pricing, String expected) {
        assertEquals(List.of(expected.split(" \\+\\+ ")), problems("[{\"id\": \"m\", \"name\": \"M\", \"context_length\": 1,"
                + " \"owned_by\": \"acme\", " + pricing + "}]"));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            a date in another form | {"prices_as_of": "26/11/2026", "models": []}  | 'prices_as_of' must be the day the prices were taken, yyyy-mm-dd, not the string "26/11/2026"
            a blank source         | {"prices_source": "", "models": []}          | 'prices_source' must be a non-blank string saying where the prices come from, not the string ""
            no models              | {"prices_as_of": "2026-11-26"}               | the catalogue object has no 'models', the array of models
            models as an object    | {"models": {"id": "m"}}                      | 'models' must be a JSON array of models, not an object
            a string               | "models"                                     | the catalogue must be a JSON array of models, or an object {prices_as_of, prices_source, models}, not the string "models"
            """)
    void aCatalogueObjectSaysWhereItsPricesComeFromInTheDocumentedForm(String what, String catalogue, String expected) {
        assertEquals(List.of(expected), problems(catalogue));
    }

    private static List<String> problems(String catalogue) {
        return CatalogueRules.problems(catalogue.getBytes(StandardCharsets.UTF_8), ACME);
    }
}
