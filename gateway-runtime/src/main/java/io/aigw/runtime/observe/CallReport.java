package io.aigw.runtime.observe;

/**
 * What happened to one chat completion on its way upstream: filled in by the upstream layer, read
 * for the usage record, the metrics and the access log line. Written and read by the request's own
 * thread only, so it needs no synchronisation.
 */
public final class CallReport {
    private final String requestId;
    private final String requestedModel;
    private final long startedNanos;
    private String provider;
    private String upstreamModel;
    private int status;
    private long firstByteNanos = -1;
    private int fallbacks;
    private TokenUsage usage = TokenUsage.NONE;
    private long upstreamNanos;
    private boolean streamed;
    private boolean answerBegan;

    /**
     * @param requestId    sent upstream as {@code X-Request-Id}
     * @param startedNanos {@link System#nanoTime()} when the request arrived
     */
    public CallReport(String requestId, String requestedModel, long startedNanos) {
        this.requestId = requestId;
        this.requestedModel = requestedModel;
        this.startedNanos = startedNanos;
    }

    public long startedNanos() {
        return startedNanos;
    }

    public String requestId() {
        return requestId;
    }

    /** The model the caller asked for. */
    public String requestedModel() {
        return requestedModel;
    }

    /** Adds time spent waiting on an upstream. */
    public void waitedOnUpstream(long nanos) {
        upstreamNanos += nanos;
    }

    /** Marks the answer as relayed as a stream. */
    public void streamed() {
        streamed = true;
    }

    /** Time spent waiting on upstreams: whole answers, or a stream's headers; failed attempts included. */
    public long upstreamNanos() {
        return upstreamNanos;
    }

    /** Whether the answer was relayed as a stream. */
    public boolean isStream() {
        return streamed;
    }

    /** Records that a provider is tried; every one after the first counts as a fallback. */
    public void attempt(String provider, String upstreamModel) {
        if (this.provider != null) {
            fallbacks++;
        }
        this.provider = provider;
        this.upstreamModel = upstreamModel;
    }

    /** Records the status the caller got and when its first byte left. */
    public void answered(int status, long firstByteNanos) {
        this.status = status;
        this.answerBegan |= status >= 200 && status < 300;
        this.firstByteNanos = firstByteNanos;
    }

    /**
     * Records that the answer did not end whole, after its status went out or before the caller
     * could get one: 502 when the upstream broke, 504 when it timed out, 499 when the caller left.
     * This is the status the call is counted and logged with; the caller saw another or none.
     */
    public void cutShort(int status) {
        this.status = status;
    }

    public void usage(TokenUsage usage) {
        this.usage = usage;
    }

    /** The provider tried last, or null when none was. */
    public String provider() {
        return provider;
    }

    public String upstreamModel() {
        return upstreamModel;
    }

    /**
     * The status the caller got from the upstream layer, or the one that says how its answer was cut
     * short ({@link #cutShort}); 0 when the gateway answered itself.
     */
    public int status() {
        return status;
    }

    /** {@link System#nanoTime()} when the first byte went to the caller, or -1. */
    public long firstByteNanos() {
        return firstByteNanos;
    }

    /**
     * Whether an upstream's successful answer began to reach the caller, whole or not: the call was
     * made and its tokens spent. False when every provider tried failed before that.
     */
    public boolean answerBegan() {
        return answerBegan;
    }

    /** How many providers failed before the last one tried. */
    public int fallbacks() {
        return fallbacks;
    }

    public TokenUsage usage() {
        return usage;
    }
}
