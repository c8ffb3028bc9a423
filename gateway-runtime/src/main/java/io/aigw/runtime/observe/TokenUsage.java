package io.aigw.runtime.observe;

/**
 * Token counts as an upstream reports them in {@code usage}; -1 where it reported none.
 */
public record TokenUsage(long promptTokens, long completionTokens, long totalTokens) {
    public static final TokenUsage NONE = new TokenUsage(-1, -1, -1);
}
