package io.aigw.spi;

/**
 * An HTTP API an upstream may serve natively, which the gateway then forwards to as the caller sent
 * it: the body passes through with only its {@code model} rewritten, and the answer comes back byte
 * for byte. A provider declares the APIs it serves with {@link ProviderPlugin#apis()}; a request on
 * an API its provider does not declare is refused with 400, not translated.
 *
 * @since 1.2
 */
public enum UpstreamApi {
    /** OpenAI's Chat Completions API, {@code POST /chat/completions}: every provider serves it. */
    CHAT_COMPLETIONS("/chat/completions"),
    /**
     * OpenAI's Responses API, {@code POST /responses}; the gateway also sends a created response's
     * reads ({@code GET}, {@code DELETE}, {@code /input_items}, {@code /cancel}) under this path.
     */
    RESPONSES("/responses"),
    /** OpenAI's Embeddings API, {@code POST /embeddings}. */
    EMBEDDINGS("/embeddings"),
    /**
     * Anthropic's Messages API, {@code POST /messages}, and its token count at
     * {@code /messages/count_tokens}. The upstream key goes in {@code x-api-key}, as Anthropic's API
     * takes it, where the OpenAI APIs get {@code Authorization: Bearer}.
     */
    MESSAGES("/messages");

    private final String defaultPath;

    UpstreamApi(String defaultPath) {
        this.defaultPath = defaultPath;
    }

    /** The path the API has under an upstream's base URL where the provider follows the API's vendor. */
    public String defaultPath() {
        return defaultPath;
    }
}
