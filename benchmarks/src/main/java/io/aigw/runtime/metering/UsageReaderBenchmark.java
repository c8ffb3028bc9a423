package io.aigw.runtime.metering;

import io.aigw.runtime.HotPathBenchmark;
import io.aigw.runtime.error.Jsons;
import jakarta.json.JsonObject;
import jakarta.json.stream.JsonParser;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * Reading the token counts of a non-streamed answer, which every such answer goes through:
 * {@link UsageObjectReader} and {@link ReportedUsage#inAnswer} against JSON-B ({@link Jsons#BINDING})
 * binding the same bytes to records, and JSON-P reading the object's tree. {@code content} is the
 * size of the answer's message text; {@code shape} the {@code usage} object's: the details OpenAI
 * sends, or OpenRouter's, with cache writes and its {@code cost} in dollars.
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class UsageReaderBenchmark extends HotPathBenchmark {
    @Param({"100B", "10KB"})
    public String content;

    @Param({"openai", "openrouter"})
    public String shape;

    private byte[] answer;
    private int usageAt;

    /** The counts, as JSON-B binds them; null where absent. */
    public record Usage(Long promptTokens, Long completionTokens, Long totalTokens) {
    }

    /** The one member of an answer JSON-B needs to read; it skips every other. */
    public record Answer(Usage usage) {
    }

    @Setup
    public void setUp() {
        int length = switch (content) {
            case "100B" -> 100;
            case "10KB" -> 10_000;
            default -> throw new IllegalArgumentException("content must be 100B or 10KB, not " + content);
        };
        String text = "The gateway relays the answer as it came. \\\"Quoted\\\", caf\u00e9.\\n".repeat(length / 50 + 1)
                .substring(0, length);
        if (text.endsWith("\\")) {
            text = text.substring(0, text.length() - 1);
        }
        String usage = switch (shape) {
            case "openai" -> "{\"prompt_tokens\":1200,\"completion_tokens\":345,"
                    + "\"total_tokens\":1545,\"prompt_tokens_details\":{\"cached_tokens\":1024,\"audio_tokens\":0},"
                    + "\"completion_tokens_details\":{\"reasoning_tokens\":0,\"audio_tokens\":0,"
                    + "\"accepted_prediction_tokens\":0,\"rejected_prediction_tokens\":0}}";
            case "openrouter" -> "{\"prompt_tokens\":1200,\"completion_tokens\":345,\"total_tokens\":1545,"
                    + "\"cost\":0.00014175,\"is_byok\":false,\"prompt_tokens_details\":{\"cached_tokens\":1024,"
                    + "\"cache_write_tokens\":0,\"audio_tokens\":0},\"cost_details\":{\"upstream_inference_cost\":null},"
                    + "\"completion_tokens_details\":{\"reasoning_tokens\":0,\"image_tokens\":0}}";
            default -> throw new IllegalArgumentException("shape must be openai or openrouter, not " + shape);
        };
        String json = "{\"id\":\"chatcmpl-123\",\"object\":\"chat.completion\",\"created\":1760000000,"
                + "\"model\":\"gpt-4o-mini-2024-07-18\",\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"content\":\"" + text + "\",\"refusal\":null,\"annotations\":[]},\"logprobs\":null,"
                + "\"finish_reason\":\"stop\"}],\"usage\":" + usage + ","
                + "\"service_tier\":\"default\",\"system_fingerprint\":\"fp_0123456789\"}";
        answer = json.getBytes(StandardCharsets.UTF_8);
        // A byte offset: the text before it holds characters of more than one byte.
        usageAt = json.substring(0, json.lastIndexOf("{\"prompt_tokens\"")).getBytes(StandardCharsets.UTF_8).length;
        TokenUsage read = UsageObjectReader.read(answer, usageAt, answer.length);
        if (read == null || read.cachedTokens() != 1024 || read.totalTokens() != 1545
                || read.reportedCost().isPresent() != shape.equals("openrouter")
                || Jsons.BINDING.fromJson(new ByteArrayInputStream(answer), Answer.class).usage().totalTokens() != 1545) {
            throw new IllegalStateException("the two readers disagree on the counts");
        }
    }

    /** The {@code usage} object alone, found already: the scanner. */
    @Benchmark
    public TokenUsage usageObjectScanner() {
        return UsageObjectReader.read(answer, usageAt, answer.length);
    }

    /** The {@code usage} object alone, found already: JSON-B reads it and stops at its end. */
    @Benchmark
    public Usage usageObjectJsonBinding() {
        return Jsons.BINDING.fromJson(new ByteArrayInputStream(answer, usageAt, answer.length - usageAt), Usage.class);
    }

    /** The {@code usage} object alone, found already: JSON-P builds its tree, as the reader's fallback does. */
    @Benchmark
    public JsonObject usageObjectJsonProcessing() {
        try (JsonParser parser = Jsons.PROVIDER.createParser(new ByteArrayInputStream(answer, usageAt,
                answer.length - usageAt))) {
            parser.next();
            return parser.getObject();
        }
    }

    /** The whole answer, as the gateway reads it: find the last {@code "usage"}, then scan its object. */
    @Benchmark
    public Optional<TokenUsage> answerScanner() {
        return ReportedUsage.inAnswer(answer, 0, answer.length);
    }

    /** The whole answer through JSON-B, every member but {@code usage} skipped. */
    @Benchmark
    public Answer answerJsonBinding() {
        return Jsons.BINDING.fromJson(new ByteArrayInputStream(answer), Answer.class);
    }
}
