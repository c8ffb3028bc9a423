package io.aigw.runtime.metering;

import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Chat Completions' usage: an answer's {@code usage}, or a stream's last chunk's, which replaces any
 * before. Its facts: {@code model}, {@code id} and each choice's {@code finish_reason}; in a stream,
 * every chunk repeats the first two and a choice's last chunk has its reason.
 */
final class ChatCompletionsUsage implements UsageFormat {

    @Override
    public Optional<TokenUsage> inAnswer(byte[] json, int offset, int length) {
        return ReportedUsage.inAnswer(json, offset, length);
    }

    @Override
    public TokenUsage inEvent(TokenUsage sofar, JsonValue event) {
        return ReportedUsage.inChunk(event).orElse(sofar);
    }

    @Override
    public ResponseFacts factsInStart(byte[] json, int offset, int length) {
        return AnswerWalk.over(json, offset, length, AnswerWalk.Shape.CHAT).facts();
    }

    @Override
    public AnswerReading readAnswer(byte[] json, int offset, int length) {
        return ReportedUsage.walked(json, offset, length, AnswerWalk.Shape.CHAT, ReportedUsage::usageAt, this);
    }

    @Override
    public ResponseFacts factsInEvent(ResponseFacts sofar, JsonValue event) {
        if (!(event instanceof JsonObject chunk)) {
            return sofar;
        }
        List<String> reasons = sofar.finishReasons();
        if (chunk.get("choices") instanceof JsonArray choices) {
            for (JsonValue choice : choices) {
                String reason = choice instanceof JsonObject object ? ReportedUsage.text(object, "finish_reason") : null;
                if (reason != null) {
                    reasons = new ArrayList<>(reasons);
                    reasons.add(reason);
                }
            }
        }
        String model = ReportedUsage.text(chunk, "model");
        String id = ReportedUsage.text(chunk, "id");
        return new ResponseFacts(model != null ? Optional.of(model) : sofar.model(),
                id != null ? Optional.of(id) : sofar.id(), reasons);
    }
}
