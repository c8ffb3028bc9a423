package io.aigw.runtime.metering;

import jakarta.json.JsonValue;
import java.util.Optional;

/** Chat Completions' usage: an answer's {@code usage}, or a stream's last chunk's, which replaces any before. */
final class ChatCompletionsUsage implements UsageFormat {

    @Override
    public Optional<TokenUsage> inAnswer(byte[] json, int offset, int length) {
        return ReportedUsage.inAnswer(json, offset, length);
    }

    @Override
    public TokenUsage inEvent(TokenUsage sofar, JsonValue event) {
        return ReportedUsage.inChunk(event).orElse(sofar);
    }
}
