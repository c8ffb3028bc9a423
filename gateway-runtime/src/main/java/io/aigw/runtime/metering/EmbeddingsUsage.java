package io.aigw.runtime.metering;

import jakarta.json.JsonValue;
import java.util.Optional;

/**
 * Embeddings' usage: an answer's {@code usage} as Chat Completions writes it, with
 * {@code prompt_tokens} and {@code total_tokens} alone, since an embedding writes no tokens: a
 * {@code completion_tokens} left out counts as none, so that the input tokens give the cost.
 */
final class EmbeddingsUsage implements UsageFormat {

    @Override
    public Optional<TokenUsage> inAnswer(byte[] json, int offset, int length) {
        return ReportedUsage.inAnswer(json, offset, length).map(EmbeddingsUsage::noneWritten);
    }

    @Override
    public TokenUsage inEvent(TokenUsage sofar, JsonValue event) {
        return ReportedUsage.inChunk(event).map(EmbeddingsUsage::noneWritten).orElse(sofar);
    }

    @Override
    public ResponseFacts factsInStart(byte[] json, int offset, int length) {
        return AnswerWalk.over(json, offset, length, AnswerWalk.Shape.EMBEDDINGS).facts();
    }

    @Override
    public AnswerReading readAnswer(byte[] json, int offset, int length) {
        return ReportedUsage.walked(json, offset, length, AnswerWalk.Shape.EMBEDDINGS,
                (answer, at, end) -> ReportedUsage.usageAt(answer, at, end).map(EmbeddingsUsage::noneWritten), this);
    }

    /** Embeddings are never streamed. */
    @Override
    public ResponseFacts factsInEvent(ResponseFacts sofar, JsonValue event) {
        return sofar;
    }

    private static TokenUsage noneWritten(TokenUsage usage) {
        if (usage.completionTokens() >= 0 || usage.promptTokens() < 0) {
            return usage;
        }
        return new TokenUsage(usage.promptTokens(), 0, usage.totalTokens(), usage.cachedTokens(),
                usage.cacheWriteTokens(), usage.reasoningTokens(), usage.reportedCost());
    }
}
