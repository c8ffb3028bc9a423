package io.aigw.runtime.exchange;

import io.aigw.runtime.error.ErrorShape;
import io.aigw.spi.UpstreamApi;
import java.util.Locale;

/** The API an exchange was asked through, and the upstream API it is forwarded to. */
public enum Endpoint {
    /** {@code POST /api/v1/chat/completions}. */
    CHAT_COMPLETIONS("/api/v1/chat/completions", UpstreamApi.CHAT_COMPLETIONS),
    /** {@code POST /api/v1/responses}. */
    RESPONSES("/api/v1/responses", UpstreamApi.RESPONSES),
    /** {@code POST /api/v1/embeddings}. */
    EMBEDDINGS("/api/v1/embeddings", UpstreamApi.EMBEDDINGS),
    /** {@code POST /anthropic/v1/messages}. */
    MESSAGES("/anthropic/v1/messages", UpstreamApi.MESSAGES),
    /** {@code POST /anthropic/v1/messages/count_tokens}. */
    COUNT_TOKENS("/anthropic/v1/messages/count_tokens", UpstreamApi.MESSAGES);

    private final String path;
    private final UpstreamApi api;
    private final String label = name().toLowerCase(Locale.ROOT);

    Endpoint(String path, UpstreamApi api) {
        this.path = path;
        this.api = api;
    }

    /** The path callers post to, for messages. */
    public String path() {
        return path;
    }

    /** The upstream API a provider must serve for the exchange to be forwarded to it. */
    public UpstreamApi api() {
        return api;
    }

    /** The shape of the errors answered on this endpoint. */
    public ErrorShape errorShape() {
        return ErrorShape.forPath(path);
    }

    /**
     * Whether an upstream bills the exchange: all but a token count, which is free and counts only as
     * a request against a key's {@code rpm}.
     */
    public boolean billed() {
        return this != COUNT_TOKENS;
    }

    /** The endpoint's name in metrics, logs and usage records: {@code chat_completions}, {@code embeddings}... */
    public String label() {
        return label;
    }
}
