package io.aigw.runtime.upstream;

/**
 * What happened to one chat completion on its way upstream, filled in by {@link ChatForwarder}
 * for usage records, metrics and logs. Written by the request's own thread only.
 */
public final class CallReport {
    private String provider;
    private String upstreamModel;
    private int status;
    private long firstByteNanos = -1;
    private int fallbacks;
    private TokenUsage usage = TokenUsage.NONE;

    void attempt(String provider, String upstreamModel) {
        if (this.provider != null) {
            fallbacks++;
        }
        this.provider = provider;
        this.upstreamModel = upstreamModel;
    }

    void answered(int status, long firstByteNanos) {
        this.status = status;
        this.firstByteNanos = firstByteNanos;
    }

    void usage(TokenUsage usage) {
        this.usage = usage;
    }

    /** The provider tried last, or null when none was. */
    public String provider() {
        return provider;
    }

    public String upstreamModel() {
        return upstreamModel;
    }

    /** The status the caller got from the upstream layer, or 0 when the gateway answered itself. */
    public int status() {
        return status;
    }

    /** {@link System#nanoTime()} when the first byte went to the caller, or -1. */
    public long firstByteNanos() {
        return firstByteNanos;
    }

    /** How many providers failed before the last one tried. */
    public int fallbacks() {
        return fallbacks;
    }

    public TokenUsage usage() {
        return usage;
    }
}
