package io.aigw.runtime.pricing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import io.aigw.plugin.anthropic.AnthropicPlugin;
import io.aigw.plugin.gemini.GeminiPlugin;
import io.aigw.plugin.openai.OpenAiPlugin;
import io.aigw.plugin.openrouter.OpenRouterPlugin;
import io.aigw.plugin.xai.XaiPlugin;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.plugin.DiscoveredPlugin;
import io.aigw.runtime.plugin.ModelEntry;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.plugin.ProviderFactory;
import io.aigw.runtime.metering.AnswerUsage;
import io.aigw.runtime.metering.TokenUsage;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Golden costs: for each shipped plugin, a usage object as that provider's OpenAI-compatible
 * endpoint sends it, read as the gateway reads an answer, priced with the plugin's own catalogue.
 * Each expected figure is worked out by hand in the comment beside it, in US dollars:
 * {@code tokens × rate per million / 1 000 000}.
 */
final class ShippedPricesTest {
    /**
     * OpenAI counts cached tokens among {@code prompt_tokens} and reasoning tokens among
     * {@code completion_tokens} (platform.openai.com/docs/api-reference/chat/object; "OpenAI includes
     * cached tokens inside prompt_tokens", docs.stigg.io/documentation/ai-agents/llm-wrappers/providers/openai).
     */
    private static final String OPENAI_GPT_5 = """
            {"id":"chatcmpl-1","object":"chat.completion","created":1764115200,"model":"gpt-5-2025-08-07",
             "choices":[{"index":0,"message":{"role":"assistant","content":"Done.","refusal":null,"annotations":[]},
             "finish_reason":"stop"}],
             "usage":{"prompt_tokens":2006,"completion_tokens":1300,"total_tokens":3306,
             "prompt_tokens_details":{"cached_tokens":1920,"audio_tokens":0},
             "completion_tokens_details":{"reasoning_tokens":1024,"audio_tokens":0,"accepted_prediction_tokens":0,
             "rejected_prediction_tokens":0}},"service_tier":"default","system_fingerprint":null}
            """;

    @Test
    void openAiChargesCachedPromptTokensAtTheCachedRateAndReasoningAmongTheCompletion() {
        Cost cost = shipped().cost("openai", "gpt-5", AnswerUsage.of(OPENAI_GPT_5));

        // gpt-5: input 1.25, cached 0.125, output 10 (reasoning at the output rate).
        //   uncached (2006 - 1920 =   86) x  1.25  = 0.0001075
        //   cached                  1920  x  0.125 = 0.000240
        //   output   (1300 - 1024 =  276) x 10     = 0.002760
        //   reasoning               1024  x 10     = 0.010240
        //                                    total = 0.0133475
        assertEquals(new Cost.Priced(new Usd(13_347_500), shipped().version()), cost);
    }

    /**
     * Gemini bills thinking tokens as output and counts them in {@code total_tokens} but not in
     * {@code completion_tokens} (github.com/mozilla-ai/any-llm/issues/1290, "prompt + completion ≠
     * total whenever the model thinks"; github.com/Clarifai/clarifai-python/pull/978: "prompt=20,
     * completion=424, total=1016"); cached tokens are part of the prompt's count.
     */
    private static String gemini(long prompt, long total) {
        return """
                {"choices":[{"finish_reason":"stop","index":0,"message":{"content":"Ok.","role":"assistant"}}],
                 "created":1764115200,"id":"abc","model":"gemini-2.5-pro","object":"chat.completion",
                 "usage":{"completion_tokens":800,"prompt_tokens":%d,"total_tokens":%d,
                 "prompt_tokens_details":{"cached_tokens":150000}}}
                """.formatted(prompt, total);
    }

    @Test
    void geminiChargesThinkingTokensCountedOnlyInTheTotalAndSwitchesToItsLongContextRatesAbove200kPromptTokens() {
        PriceBook prices = shipped();

        // 200 000 prompt tokens is not above 200k: gemini-2.5-pro's usual rates, input 1.25,
        // cached 0.125, output 10. Thinking: 202 300 - 200 000 - 800 = 1500 tokens beyond the completion.
        //   uncached (200000 - 150000 = 50000) x  1.25  = 0.0625
        //   cached                     150000  x  0.125 = 0.01875
        //   output                        800  x 10     = 0.008
        //   thinking                     1500  x 10     = 0.015
        //                                         total = 0.10425
        assertEquals(new Usd(104_250_000), amount(prices.cost("gemini", "gemini-2.5-pro",
                AnswerUsage.of(gemini(200_000, 202_300)))));
        // One token more is above it: input 2.50, cached 0.25, output 15 for every token.
        //   uncached 50001 x  2.50 = 0.1250025
        //   cached  150000 x  0.25 = 0.0375
        //   output     800 x 15    = 0.012
        //   thinking  1500 x 15    = 0.0225
        //                    total = 0.1970025
        assertEquals(new Usd(197_002_500), amount(prices.cost("gemini", "gemini-2.5-pro",
                AnswerUsage.of(gemini(200_001, 202_301)))));
    }

    /**
     * Anthropic's OpenAI SDK compatibility reports the three counts only: "Prompt caching is not
     * supported" there (docs.anthropic.com/en/api/openai-sdk), and extended thinking is billed as
     * output tokens, which {@code completion_tokens} counts.
     */
    private static String anthropic(long prompt, long completion) {
        return """
                {"id":"msg_01","choices":[{"finish_reason":"stop","index":0,"message":{"content":"Hi.","role":"assistant"}}],
                 "created":1764115200,"model":"claude-sonnet-4-5-20250929","object":"chat.completion",
                 "usage":{"completion_tokens":%d,"prompt_tokens":%d,"total_tokens":%d}}
                """.formatted(completion, prompt, prompt + completion);
    }

    @Test
    void anthropicChargesPromptAndCompletionAndItsLongContextRatesAbove200kPromptTokens() {
        PriceBook prices = shipped();

        // claude-sonnet-4-5: input 3, output 15.
        //   1850 x  3 = 0.00555
        //    620 x 15 = 0.0093
        //       total = 0.01485
        assertEquals(new Usd(14_850_000), amount(prices.cost("anthropic", "claude-sonnet-4-5",
                AnswerUsage.of(anthropic(1850, 620)))));
        // Above 200k prompt tokens: input 6, output 22.50.
        //   250000 x  6    = 1.5
        //     1000 x 22.50 = 0.0225
        //            total = 1.5225
        assertEquals(new Usd(1_522_500_000), amount(prices.cost("anthropic", "claude-sonnet-4-5",
                AnswerUsage.of(anthropic(250_000, 1000)))));
    }

    /** Claude Code asks for dated snapshots of itself; each is priced as the model it is a snapshot of. */
    @Test
    void anthropicsDatedSnapshotIdsCostWhatTheirModelsCost() {
        PriceBook prices = shipped();
        Map<String, String> snapshots = Map.of("claude-sonnet-4-5-20250929", "claude-sonnet-4-5",
                "claude-haiku-4-5-20251001", "claude-haiku-4-5", "claude-opus-4-1-20250805", "claude-opus-4-1",
                "claude-opus-4-20250514", "claude-opus-4-0", "claude-sonnet-4-20250514", "claude-sonnet-4-0");
        snapshots.forEach((snapshot, model) -> assertEquals(
                amount(prices.cost("anthropic", model, AnswerUsage.of(anthropic(250_000, 1000)))),
                amount(prices.cost("anthropic", snapshot, AnswerUsage.of(anthropic(250_000, 1000)))), snapshot));
        assertEquals(new Usd(14_850_000), amount(prices.cost("anthropic", "claude-sonnet-4-5-20250929",
                AnswerUsage.of(anthropic(1850, 620)))));
    }

    /**
     * xAI leaves reasoning tokens out of {@code completion_tokens} and counts them in
     * {@code total_tokens} (this object: cloud.google.com/vertex-ai/generative-ai/docs/partner-models/grok/
     * capabilities/reasoning, "separated from the completion_tokens", 663 + 50 + 124 = 837;
     * forem.com/maximsaplin/grok-3-api-reasoning-tokens-are-counted-differently-197), and reports the
     * cost it charged as {@code cost_in_usd_ticks}, 10^10 ticks to the dollar
     * (docs.x.ai/developers/cost-tracking, whose example is 37756000 ticks).
     */
    private static final String XAI_USAGE = """
            "completion_tokens":50,"completion_tokens_details":{"accepted_prediction_tokens":0,"audio_tokens":0,
            "reasoning_tokens":124,"rejected_prediction_tokens":0},%s"num_sources_used":0,"prompt_tokens":663,
            "prompt_tokens_details":{"audio_tokens":0,"cached_tokens":654,"image_tokens":0,"text_tokens":663},
            "total_tokens":837""";

    private static String xai(String cost) {
        return "{\"choices\":[{\"finish_reason\":\"stop\",\"index\":0,\"message\":{\"content\":\"I am Grok.\","
                + "\"role\":\"assistant\"}}],\"created\":1764115200,\"id\":\"x1\",\"model\":\"grok-4-fast-reasoning\","
                + "\"object\":\"chat.completion\",\"system_fingerprint\":\"fp_1\",\"usage\":{"
                + XAI_USAGE.formatted(cost) + "}}";
    }

    @Test
    void xaiReasoningCountedApartIsChargedBesideTheCompletionAndTheTicksItReportsWin() {
        PriceBook prices = shipped();

        // Without the ticks, grok-4-fast-reasoning: input 0.20, cached 0.05, output 0.50.
        //   uncached (663 - 654 = 9) x 0.20 = 0.0000018
        //   cached               654 x 0.05 = 0.0000327
        //   output                50 x 0.50 = 0.000025
        //   reasoning            124 x 0.50 = 0.000062
        //                             total = 0.0001215
        assertEquals(new Cost.Priced(new Usd(121_500), prices.version()),
                prices.cost("xai", "grok-4-fast-reasoning", AnswerUsage.of(xai(""))));
        // With them: 37756000 / 10^10 = 0.0037756, whatever the table says.
        assertEquals(new Cost.Reported(new Usd(3_775_600)),
                prices.cost("xai", "grok-4-fast-reasoning", AnswerUsage.of(xai("\"cost_in_usd_ticks\":37756000,"))));
    }

    /**
     * OpenRouter puts its charge in {@code usage.cost}, in credits of one dollar, beside cached and
     * cache-write counts (openrouter.ai/docs/use-cases/usage-accounting); here the last chunk of a stream.
     */
    private static final String OPENROUTER_LAST_CHUNK = """
            {"id":"gen-1","object":"chat.completion.chunk","created":1764115200,"model":"anthropic/claude-sonnet-4.5",
             "choices":[],"usage":{"completion_tokens":2,"completion_tokens_details":{"reasoning_tokens":0},
             "cost":0.00014175,"cost_details":{"upstream_inference_cost":null},"is_byok":false,"prompt_tokens":194,
             "prompt_tokens_details":{"cached_tokens":0,"cache_write_tokens":100,"audio_tokens":0},"total_tokens":196}}
            """;

    @Test
    void openRoutersReportedCostWinsOverAnyPriceAndWithoutItTheAutoRouterCostsAnUnknownAmount() {
        PriceBook configured = shipped(Map.of(
                "providers.openrouter.models.0.id", "anthropic/claude-sonnet-4.5",
                "providers.openrouter.models.0.context-length", "1000000",
                "providers.openrouter.models.0.pricing.input", "3",
                "providers.openrouter.models.0.pricing.output", "15"));

        assertEquals(new Cost.Reported(new Usd(141_750)), configured.cost("openrouter", "anthropic/claude-sonnet-4.5",
                AnswerUsage.of(OPENROUTER_LAST_CHUNK)));
        assertEquals(new Cost.Reported(new Usd(141_750)), configured.cost("openrouter", "openrouter/auto",
                AnswerUsage.of(OPENROUTER_LAST_CHUNK)));
        String withoutCost = OPENROUTER_LAST_CHUNK.replace("\"cost\":0.00014175,", "");
        assertEquals(new Cost.Unknown(Cost.Reason.NO_PRICE),
                configured.cost("openrouter", "openrouter/auto", AnswerUsage.of(withoutCost)));
        // The operator's price: (194 - 100) x 3 + 100 cache writes x 3 (no cache_write rate: the input
        // rate) + 2 x 15 = 0.000282 + 0.0003 + 0.00003 = 0.000612
        assertEquals(new Usd(612_000), amount(configured.cost("openrouter", "anthropic/claude-sonnet-4.5",
                AnswerUsage.of(withoutCost))));
    }

    @Test
    void aModelWithoutAPriceHasAnUnknownCostNeverZero() {
        assertEquals(new Cost.Unknown(Cost.Reason.NO_PRICE),
                shipped().cost("openai", "gpt-3.5-turbo", AnswerUsage.of(OPENAI_GPT_5)));
    }

    @Test
    void everyShippedModelHasAPriceButOpenRoutersAutoRouter() {
        List<String> unpriced = providers(Map.of()).stream()
                .flatMap(provider -> provider.catalogue().stream()
                        .filter(model -> model.price().isEmpty())
                        .map(model -> provider.prefix() + "/" + model.id()))
                .toList();

        assertEquals(List.of("openrouter/openrouter/auto"), unpriced);
        assertEquals(15 + 7 + 12 + 6 + 2, shipped().size());
    }

    @Test
    void theShippedEmbeddingModelsChargeAMillionInputTokensAtTheirListPriceAndNoOutputRate() {
        PriceBook prices = shipped();
        // An embeddings answer reports prompt_tokens and total_tokens alone: no tokens written.
        TokenUsage million = new TokenUsage(1_000_000, 0, 1_000_000);

        assertEquals(new Usd(20_000_000), amount(prices.cost("openai", "text-embedding-3-small", million)));
        assertEquals(new Usd(130_000_000), amount(prices.cost("openai", "text-embedding-3-large", million)));
        assertEquals(new Usd(100_000_000), amount(prices.cost("openai", "text-embedding-ada-002", million)));
        assertEquals(new Usd(150_000_000), amount(prices.cost("gemini", "gemini-embedding-001", million)));
        assertEquals(new Usd(20_000_000), amount(prices.cost("openrouter", "openai/text-embedding-3-small", million)));
        assertEquals(new Usd(130_000_000), amount(prices.cost("openrouter", "openai/text-embedding-3-large", million)));
    }

    @Test
    void aChangedPriceChangesTheVersionAndTheOldVersionsTableStillPricesAsItDid() {
        PriceBook before = shipped();
        String kept = before.canonical();
        PriceBook after = shipped(Map.of("providers.openai.models.0.id", "gpt-5",
                "providers.openai.models.0.pricing.input", "1.00",
                "providers.openai.models.0.pricing.cached-input", "0.125",
                "providers.openai.models.0.pricing.output", "10"));

        assertNotEquals(before.version(), after.version());
        assertEquals(before.version(), shipped().version(), "the same prices, the same version");
        PriceBook restored = PriceBook.parse(kept);
        assertEquals(before.version(), restored.version());
        assertEquals(kept, restored.canonical());
        // At the new input rate: 86 x 1.00 = 0.000086 instead of 0.0001075: 0.013326 in all.
        assertEquals(new Cost.Priced(new Usd(13_326_000), after.version()),
                after.cost("openai", "gpt-5", AnswerUsage.of(OPENAI_GPT_5)));
        assertEquals(new Cost.Priced(new Usd(13_347_500), before.version()),
                restored.cost("openai", "gpt-5", AnswerUsage.of(OPENAI_GPT_5)));
    }

    private static Usd amount(Cost cost) {
        return cost.amount().orElseThrow(() -> new AssertionError("no amount: " + cost));
    }

    private static PriceBook shipped() {
        return shipped(Map.of());
    }

    private static PriceBook shipped(Map<String, String> config) {
        return PriceBook.of(Provider.prices(providers(config)));
    }

    private static List<Provider> providers(Map<String, String> config) {
        Settings settings = new Settings(Config.just(ConfigSources.create(config)), Map.of());
        return new ProviderFactory(settings).create(Stream.of(new OpenAiPlugin(), new GeminiPlugin(),
                new AnthropicPlugin(), new XaiPlugin(), new OpenRouterPlugin()).map(DiscoveredPlugin::of).toList());
    }
}
