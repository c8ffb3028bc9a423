package io.aigw.runtime.observe;

import io.aigw.runtime.metering.TextEstimate;
import io.aigw.runtime.metering.TokenUsage;
import java.util.ArrayList;
import java.util.List;

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
    private boolean refusedByUpstream;
    private boolean cutShort;
    private int refusedStatus;
    private long relayedTextBytes;
    private List<BilledAttempt> billedAttempts = List.of();
    private Charge charge;

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

    /**
     * Records that a provider is tried; every one after the first counts as a fallback. A provider
     * tried before that refused the request but reported usage (it billed it) is kept apart.
     */
    public void attempt(String provider, String upstreamModel) {
        if (this.provider != null) {
            fallbacks++;
            if (usage != TokenUsage.NONE) {
                if (billedAttempts.isEmpty()) {
                    billedAttempts = new ArrayList<>(2);
                }
                billedAttempts.add(new BilledAttempt(this.provider, this.upstreamModel, refusedStatus, fallbacks - 1,
                        usage));
            }
            usage = TokenUsage.NONE;
            refusedByUpstream = false;
            relayedTextBytes = 0;
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
        this.cutShort = true;
    }

    /**
     * Whether an upstream's successful answer began to reach the caller and did not end whole: the
     * upstream broke or went silent, or the caller left.
     */
    public boolean answerWasCut() {
        return cutShort && answerBegan;
    }

    public void usage(TokenUsage usage) {
        this.usage = usage;
    }

    /**
     * Records that the provider tried answered with an error status: it did not bill the request,
     * unless its answer reported {@code usage} (then not {@link TokenUsage#NONE}).
     */
    public void refusedByUpstream(int status, TokenUsage usage) {
        this.refusedByUpstream = true;
        this.refusedStatus = status;
        this.usage = usage;
    }

    /** Whether the provider tried last answered with an error status. */
    public boolean wasRefusedByUpstream() {
        return refusedByUpstream;
    }

    /**
     * Records the bytes of generated text relayed so far, by a stream or by a plain answer relayed as
     * it arrives, for an estimate where it reports no usage.
     */
    public void relayedText(long bytes) {
        this.relayedTextBytes = bytes;
    }

    /** The bytes of generated text relayed ({@link TextEstimate}); 0 for a plain answer read whole. */
    public long relayedTextBytes() {
        return relayedTextBytes;
    }

    /** Records what the request is charged, once it has ended. */
    public void charged(Charge charge) {
        this.charge = charge;
    }

    /** What the request is charged, or null until it has ended. */
    public Charge charge() {
        return charge;
    }

    /** The providers tried before the last that refused the request yet reported usage, in order. */
    public List<BilledAttempt> billedAttempts() {
        return billedAttempts;
    }

    /**
     * A provider that {@code gateway/auto} moved past after it answered with an error, which reported
     * usage all the same: the upstream billed it.
     *
     * @param status    the upstream's status
     * @param fallbacks how many providers failed before this one
     */
    public record BilledAttempt(String provider, String upstreamModel, int status, int fallbacks, TokenUsage usage) {
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
