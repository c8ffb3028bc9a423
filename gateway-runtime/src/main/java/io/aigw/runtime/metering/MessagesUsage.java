package io.aigw.runtime.metering;

import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Optional;

/**
 * Anthropic's Messages usage: {@code input_tokens}, {@code cache_creation_input_tokens},
 * {@code cache_read_input_tokens} and {@code output_tokens}, in an answer's {@code usage}, or split
 * over a stream's {@code message_start} ({@code message.usage}) and {@code message_delta}
 * ({@code usage}, whose {@code output_tokens} is the count so far and which may repeat the others).
 *
 * <p>Anthropic's {@code input_tokens} leaves out the tokens read from or written into a cache,
 * where the gateway's {@link TokenUsage} counts every prompt token in {@code promptTokens}, as
 * OpenAI's {@code prompt_tokens} does: the prompt is the three added up, and the cache's two are
 * its details, so that each is priced at its own rate.
 *
 * <p>Its facts: the message's {@code model}, {@code id} and {@code stop_reason}.
 */
final class MessagesUsage implements UsageFormat {

    @Override
    public Optional<TokenUsage> inAnswer(byte[] json, int offset, int length) {
        return ReportedUsage.lastUsageObject(json, offset, length).map(usage -> counted(TokenUsage.NONE, usage));
    }

    @Override
    public TokenUsage inEvent(TokenUsage sofar, JsonValue event) {
        if (!(event instanceof JsonObject object)) {
            return sofar;
        }
        JsonValue usage = object.get("usage");
        if (!(usage instanceof JsonObject) && object.get("message") instanceof JsonObject message) {
            usage = message.get("usage");
        }
        return usage instanceof JsonObject counts ? counted(sofar, counts) : sofar;
    }

    @Override
    public ResponseFacts factsInStart(byte[] json, int offset, int length) {
        return AnswerWalk.over(json, offset, length, AnswerWalk.Shape.MESSAGES).facts();
    }

    @Override
    public AnswerReading readAnswer(byte[] json, int offset, int length) {
        return ReportedUsage.walked(json, offset, length, AnswerWalk.Shape.MESSAGES,
                (answer, at, end) -> ReportedUsage.parseObject(answer, at, end).map(usage -> counted(TokenUsage.NONE,
                        usage)), this);
    }

    /** A stream's {@code message_start} names the message's {@code model} and {@code id}; its {@code message_delta} the {@code stop_reason}. */
    @Override
    public ResponseFacts factsInEvent(ResponseFacts sofar, JsonValue event) {
        if (!(event instanceof JsonObject object)) {
            return sofar;
        }
        if (object.get("message") instanceof JsonObject message) {
            return sofar.then(new ResponseFacts(Optional.ofNullable(ReportedUsage.text(message, "model")),
                    Optional.ofNullable(ReportedUsage.text(message, "id")), List.of()));
        }
        String reason = object.get("delta") instanceof JsonObject delta ? ReportedUsage.text(delta, "stop_reason")
                : null;
        return reason == null ? sofar : sofar.then(new ResponseFacts(Optional.empty(), Optional.empty(),
                List.of(reason)));
    }

    /** {@code sofar} with the counts {@code usage} reports in place of its own. */
    private static TokenUsage counted(TokenUsage sofar, JsonObject usage) {
        long cacheRead = count(usage, "cache_read_input_tokens", sofar.cachedTokens());
        long cacheWrite = count(usage, "cache_creation_input_tokens", sofar.cacheWriteTokens());
        long input = count(usage, "input_tokens", uncached(sofar));
        long output = count(usage, "output_tokens", sofar.completionTokens());
        long prompt = input < 0 ? -1 : input + Math.max(0, cacheRead) + Math.max(0, cacheWrite);
        long total = prompt < 0 || output < 0 ? -1 : prompt + output;
        return new TokenUsage(prompt, output, total, cacheRead, cacheWrite, -1, Optional.empty());
    }

    /** The {@code input_tokens} that {@code usage} was made from: its prompt without the cache's tokens. */
    private static long uncached(TokenUsage usage) {
        return usage.promptTokens() < 0 ? -1
                : usage.promptTokens() - Math.max(0, usage.cachedTokens()) - Math.max(0, usage.cacheWriteTokens());
    }

    private static long count(JsonObject usage, String name, long otherwise) {
        return usage.get(name) instanceof JsonNumber number ? number.longValue() : otherwise;
    }
}
