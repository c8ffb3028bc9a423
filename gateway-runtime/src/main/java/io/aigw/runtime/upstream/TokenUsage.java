package io.aigw.runtime.upstream;

import jakarta.json.Json;
import jakarta.json.JsonException;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.util.Optional;

/**
 * Token counts as an upstream reports them in {@code usage}; -1 where it reported none.
 */
public record TokenUsage(long promptTokens, long completionTokens, long totalTokens) {
    public static final TokenUsage NONE = new TokenUsage(-1, -1, -1);

    /** Reads {@code usage} from a chat completion (or chunk) JSON object; empty if absent or null. */
    static Optional<TokenUsage> from(byte[] json, int offset, int length) {
        try (JsonReader reader = Json.createReader(new ByteArrayInputStream(json, offset, length))) {
            return from(reader.readValue());
        } catch (JsonException | IllegalStateException e) {
            return Optional.empty();
        }
    }

    static Optional<TokenUsage> from(JsonValue value) {
        if (value instanceof JsonObject object && object.get("usage") instanceof JsonObject usage) {
            return Optional.of(new TokenUsage(count(usage, "prompt_tokens"), count(usage, "completion_tokens"),
                    count(usage, "total_tokens")));
        }
        return Optional.empty();
    }

    private static long count(JsonObject usage, String name) {
        return usage.get(name) instanceof JsonNumber number ? number.longValue() : -1;
    }
}
