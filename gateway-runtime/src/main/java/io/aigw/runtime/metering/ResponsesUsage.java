package io.aigw.runtime.metering;

import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.util.List;
import java.util.Optional;

/**
 * The Responses API's usage: a response's {@code usage}, with {@code input_tokens},
 * {@code output_tokens}, {@code total_tokens}, {@code input_tokens_details.cached_tokens} and
 * {@code output_tokens_details.reasoning_tokens}; in a stream, that of the response its last event
 * ({@code response.completed}, {@code response.incomplete} or {@code response.failed}) carries.
 * Its facts are the response's {@code model}, {@code id}, and its {@code incomplete_details.reason}
 * or else its {@code status} as the finish reason.
 */
final class ResponsesUsage implements UsageFormat {

    @Override
    public Optional<TokenUsage> inAnswer(byte[] json, int offset, int length) {
        int end = offset + length;
        int at = ReportedUsage.usageObject(json, offset, end);
        return at < 0 ? Optional.empty() : ReportedUsage.parseObject(json, at, end).map(ResponsesUsage::read);
    }

    @Override
    public TokenUsage inEvent(TokenUsage sofar, JsonValue event) {
        if (event instanceof JsonObject object && object.get("response") instanceof JsonObject response
                && response.get("usage") instanceof JsonObject usage) {
            return read(usage);
        }
        return sofar;
    }

    @Override
    public ResponseFacts factsInStart(byte[] json, int offset, int length) {
        return AnswerWalk.over(json, offset, length, AnswerWalk.Shape.RESPONSES).facts();
    }

    @Override
    public AnswerReading readAnswer(byte[] json, int offset, int length) {
        return ReportedUsage.walked(json, offset, length, AnswerWalk.Shape.RESPONSES,
                (answer, at, end) -> ReportedUsage.parseObject(answer, at, end).map(ResponsesUsage::read), this);
    }

    /**
     * A response's {@code model}, {@code id}, and as its finish reason {@code incomplete_details.reason}
     * when it is incomplete, else its {@code status}; in a stream, from the response an event carries.
     */
    @Override
    public ResponseFacts factsInEvent(ResponseFacts sofar, JsonValue event) {
        if (!(event instanceof JsonObject object && object.get("response") instanceof JsonObject response)) {
            return sofar;
        }
        String reason = response.get("incomplete_details") instanceof JsonObject details
                ? ReportedUsage.text(details, "reason") : null;
        String status = ReportedUsage.text(response, "status");
        return sofar.then(new ResponseFacts(Optional.ofNullable(ReportedUsage.text(response, "model")),
                Optional.ofNullable(ReportedUsage.text(response, "id")),
                reason != null ? List.of(reason) : status != null ? List.of(status) : List.of()));
    }

    private static TokenUsage read(JsonObject usage) {
        JsonObject input = usage.get("input_tokens_details") instanceof JsonObject details
                ? details : JsonValue.EMPTY_JSON_OBJECT;
        JsonObject output = usage.get("output_tokens_details") instanceof JsonObject details
                ? details : JsonValue.EMPTY_JSON_OBJECT;
        return new TokenUsage(ReportedUsage.count(usage, "input_tokens"), ReportedUsage.count(usage, "output_tokens"),
                ReportedUsage.count(usage, "total_tokens"), ReportedUsage.count(input, "cached_tokens"), -1,
                ReportedUsage.count(output, "reasoning_tokens"), Optional.empty());
    }
}
