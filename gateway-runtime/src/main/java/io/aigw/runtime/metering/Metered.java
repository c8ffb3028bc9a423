package io.aigw.runtime.metering;

/**
 * What a {@link Charge} is worked out from: the provider and model that served an attempt, the
 * usage it reported, and how its answer went where it reported none.
 */
public interface Metered {

    /** The provider's prefix, as prices are keyed. */
    String provider();

    String upstreamModel();

    /** What the upstream reported, or {@link TokenUsage#NONE}. */
    TokenUsage usage();

    /**
     * Whether an answer without usage is charged by the text it relayed: a stream, or a plain answer
     * cut short after it began to reach the caller.
     */
    boolean chargedByText();

    /** The bytes of generated text relayed ({@link TextEstimate}); 0 for a plain answer read whole. */
    long relayedTextBytes();

    /** Whether the upstream answered with an error status: unbilled, unless it reported usage. */
    boolean refused();
}
