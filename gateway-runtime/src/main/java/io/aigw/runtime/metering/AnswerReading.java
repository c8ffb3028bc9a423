package io.aigw.runtime.metering;

import java.util.Optional;

/**
 * What one walk over a whole answer found: its usage, as {@link UsageFormat#inAnswer} reads it,
 * and its {@link ResponseFacts}.
 */
public record AnswerReading(Optional<TokenUsage> usage, ResponseFacts facts) {
}
