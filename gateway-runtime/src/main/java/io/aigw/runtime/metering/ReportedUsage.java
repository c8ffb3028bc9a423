package io.aigw.runtime.metering;

import io.aigw.runtime.error.Jsons;
import io.aigw.runtime.pricing.Usd;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParser;
import java.io.StringReader;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Finds the token counts an upstream reported in an answer's or a stream chunk's {@code usage}, with
 * the details a cost depends on ({@link UsageObjectReader} lists them). By hand: binding the answer
 * with JSON-B reads every member on the way, about 7 times as long for a short answer and 90 for one
 * of 10 KB ({@code UsageReaderBenchmark}).
 */
public final class ReportedUsage {
    private static final byte[] USAGE_KEY = "\"usage\"".getBytes(StandardCharsets.US_ASCII);
    /** xAI's tick is 10^-10 dollars. */
    private static final int USD_TICKS_SCALE = 10;

    /**
     * Reads {@code usage} from a chat completion JSON object; empty if absent or null. Only the
     * {@code usage} object is parsed: it is found as the last {@code "usage"} key followed by an
     * object (quotes inside JSON strings are escaped, so message text cannot look like it). The
     * usual object is read without a parser; a JSON parser reads any other.
     */
    public static Optional<TokenUsage> inAnswer(byte[] json, int offset, int length) {
        int end = offset + length;
        int at = usageObject(json, offset, end);
        return at < 0 ? Optional.empty() : usageAt(json, at, end);
    }

    /** Reads the {@code usage} object that opens at {@code json[at]}, as {@link #inAnswer} does once it found it. */
    static Optional<TokenUsage> usageAt(byte[] json, int at, int end) {
        TokenUsage usage = UsageObjectReader.read(json, at, end);
        return usage != null ? Optional.of(usage) : parseObject(json, at, end).map(ReportedUsage::read);
    }

    /**
     * What a walk of {@code shape} over {@code json[offset, offset + length)} finds: the usage
     * {@code usageAt} reads where the walk found it, or, where the walk could not reach the answer's
     * end, what {@code inAnswer} finds from the end.
     */
    static AnswerReading walked(byte[] json, int offset, int length, AnswerWalk.Shape shape, UsageReader usageAt,
                                UsageFormat format) {
        AnswerWalk walk = AnswerWalk.over(json, offset, length, shape);
        Optional<TokenUsage> usage = !walk.whole() ? format.inAnswer(json, offset, length)
                : walk.usageAt() < 0 ? Optional.empty() : usageAt.read(json, walk.usageAt(), offset + length);
        return new AnswerReading(usage, walk.facts());
    }

    /** Reads a usage object that opens at {@code json[at]}. */
    @FunctionalInterface
    interface UsageReader {
        Optional<TokenUsage> read(byte[] json, int at, int end);
    }

    /** The member {@code name} of {@code object} when it is a string, else null. */
    static String text(JsonObject object, String name) {
        return object.get(name) instanceof JsonString text ? text.getString() : null;
    }

    /**
     * Where the last {@code "usage"} key of {@code json[offset, end)} followed by an object has that
     * object's opening brace, or -1.
     */
    static int usageObject(byte[] json, int offset, int end) {
        for (int at = lastIndexOf(json, offset, end, end); at >= 0; at = lastIndexOf(json, offset, end, at)) {
            int i = skipBlanks(json, at + USAGE_KEY.length, end);
            if (i < end && json[i] == ':') {
                i = skipBlanks(json, i + 1, end);
                if (i < end && json[i] == '{') {
                    return i;
                }
            }
        }
        return -1;
    }

    /**
     * The last {@code usage} object in {@code json[offset, offset + length)}, parsed, as
     * {@link #inAnswer} finds it; empty where there is none or it is malformed.
     */
    static Optional<JsonObject> lastUsageObject(byte[] json, int offset, int length) {
        int at = usageObject(json, offset, offset + length);
        return at < 0 ? Optional.empty() : parseObject(json, at, offset + length);
    }

    /** The JSON object that starts at {@code json[from]}; empty when it is malformed. */
    static Optional<JsonObject> parseObject(byte[] json, int from, int end) {
        // From a String: over an InputStream, the parser would allocate an 8 KB decoder per answer.
        String text = new String(json, from, end - from, StandardCharsets.UTF_8);
        try (JsonParser parser = Jsons.PROVIDER.createParser(new StringReader(text))) {
            parser.next();
            return Optional.of(parser.getObject());
        } catch (JsonException | IllegalStateException | java.util.NoSuchElementException e) {
            return Optional.empty();
        }
    }

    private ReportedUsage() {
    }

    /** The last index before {@code before} where {@code "usage"} starts, or -1. */
    private static int lastIndexOf(byte[] json, int offset, int end, int before) {
        outer:
        for (int i = Math.min(before - 1, end - USAGE_KEY.length); i >= offset; i--) {
            for (int j = 0; j < USAGE_KEY.length; j++) {
                if (json[i + j] != USAGE_KEY[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** The first index from {@code from} that is not JSON white space, or {@code end}. */
    static int skipBlanks(byte[] json, int from, int end) {
        int i = from;
        while (i < end && (json[i] == ' ' || json[i] == '\t' || json[i] == '\n' || json[i] == '\r')) {
            i++;
        }
        return i;
    }

    /** Reads {@code usage} from a parsed stream chunk; empty if absent or not an object. */
    public static Optional<TokenUsage> inChunk(JsonValue value) {
        if (value instanceof JsonObject object && object.get("usage") instanceof JsonObject usage) {
            return Optional.of(read(usage));
        }
        return Optional.empty();
    }

    /** What a parsed {@code usage} object reports, as {@link UsageObjectReader} reads it from bytes. */
    private static TokenUsage read(JsonObject usage) {
        JsonObject prompt = usage.get("prompt_tokens_details") instanceof JsonObject details
                ? details : JsonValue.EMPTY_JSON_OBJECT;
        JsonObject completion = usage.get("completion_tokens_details") instanceof JsonObject details
                ? details : JsonValue.EMPTY_JSON_OBJECT;
        BigDecimal cost = usage.get("cost") instanceof JsonNumber dollars ? dollars.bigDecimalValue() : null;
        return new TokenUsage(count(usage, "prompt_tokens"), count(usage, "completion_tokens"),
                count(usage, "total_tokens"), count(prompt, "cached_tokens"), count(prompt, "cache_write_tokens"),
                count(completion, "reasoning_tokens"),
                reportedCost(cost, count(usage, "cost_in_usd_ticks")));
    }

    static long count(JsonObject usage, String name) {
        return usage.get(name) instanceof JsonNumber number ? number.longValue() : -1;
    }

    /**
     * The cost an upstream reported: xAI's {@code cost_in_usd_ticks} (10<sup>10</sup> ticks to the
     * dollar) when present, else OpenRouter's {@code cost} in dollars; none for a negative one or one
     * past what {@link Usd} holds.
     *
     * @param dollars null where the usage has no {@code cost}
     * @param ticks   -1 where it has no {@code cost_in_usd_ticks}
     */
    static Optional<Usd> reportedCost(BigDecimal dollars, long ticks) {
        try {
            if (ticks >= 0) {
                return Optional.of(Usd.of(BigDecimal.valueOf(ticks, USD_TICKS_SCALE)));
            }
            if (dollars != null && dollars.signum() >= 0) {
                return Optional.of(Usd.of(dollars));
            }
        } catch (ArithmeticException e) {
            // Past USD 9 billion for one request: not a cost.
        }
        return Optional.empty();
    }
}
