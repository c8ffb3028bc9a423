package io.aigw.runtime.limits;

/**
 * The tokens a request is reserved for before it is sent: its prompt, estimated from the body's
 * length, and its answer ({@link OutputEstimate}). The real count replaces it when the answer
 * reports usage.
 */
public final class TokenEstimate {
    /**
     * Bytes of a request body per prompt token. The providers' tokenizers average about four bytes
     * of English text a token, and the body's JSON around the text (roles, quotes, field names)
     * pays for the few tokens each message adds: so the body's length over four is near the prompt's
     * count for text, above it for JSON-heavy bodies, and below it only for text that tokenizes
     * densely (some scripts, digits).
     */
    public static final int BYTES_PER_TOKEN = 4;
    /** The output cap of a model whose catalogue entry is unknown here ({@code gateway/auto}, catch-all ids). */
    public static final long DEFAULT_OUTPUT_CAP = 32_768;

    private TokenEstimate() {
    }

    /** The prompt's tokens, estimated from the body's length: rounded up, any body one token at least. */
    public static long promptTokens(long bodyBytes) {
        return (bodyBytes + BYTES_PER_TOKEN - 1) / BYTES_PER_TOKEN;
    }
}
