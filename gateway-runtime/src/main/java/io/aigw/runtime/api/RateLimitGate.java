package io.aigw.runtime.api;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.limits.Decision;
import io.aigw.runtime.limits.LimitHeaders;
import io.aigw.runtime.limits.Limits;
import io.aigw.runtime.limits.RateLimiter;
import io.aigw.runtime.limits.Reservation;
import io.aigw.runtime.limits.TokenEstimate;
import io.aigw.runtime.observe.CallReport;
import io.aigw.runtime.observe.GatewayMetrics;
import io.aigw.runtime.observe.TokenUsage;
import io.aigw.runtime.plugin.ModelEntry;
import io.aigw.runtime.routing.AutoChain;
import io.aigw.runtime.routing.Destination;
import io.aigw.runtime.routing.Route;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerResponse;

/**
 * A chat completion's passage through its key's rate limits: before it is forwarded, one request
 * and its estimated tokens are reserved, or it is refused with 429 and no upstream is called;
 * after, the reservation is settled to what the answer used, or released when no answer began.
 */
final class RateLimitGate {
    private final RateLimiter limiter;
    private final GatewayMetrics metrics;

    RateLimitGate(RateLimiter limiter, GatewayMetrics metrics) {
        this.limiter = limiter;
        this.metrics = metrics;
    }

    /** A reservation and the tokens it was made for, which stand when the answer reports none. */
    record Held(Reservation reservation, long estimate) {
        static final Held NOTHING = new Held(Reservation.NONE, 0);
    }

    /**
     * Reserves for {@code chat} against the caller's limits and puts the key's {@code x-ratelimit-*}
     * headers on the answer.
     *
     * @throws ApiException 429 when it does not fit, 503 when the limit store cannot tell and the
     *                      gateway is told to deny then
     */
    Held admit(Caller caller, ChatRequest chat, int bodyBytes, Destination destination, ServerResponse response) {
        if (!caller.policy().limitsRate()) {
            return Held.NOTHING;
        }
        Limits limits = Limits.of(caller.policy());
        long estimate = TokenEstimate.of(bodyBytes, chat.maxOutputTokens(), outputCap(destination));
        return switch (limiter.reserve(caller.keyId(), limits, estimate)) {
            case Decision.Admitted admitted -> {
                admitted.quota().ifPresent(quota -> LimitHeaders.put(response, quota));
                yield new Held(admitted.reservation(), estimate);
            }
            case Decision.Refused refused -> {
                LimitHeaders.put(response, refused.quota());
                response.header(HeaderNames.RETRY_AFTER, LimitHeaders.retryAfter(refused.quota()));
                metrics.rateLimited(refused.limit());
                throw new ApiException(ApiError.rateLimited(refused.limit(), message(refused, limits, estimate)));
            }
            case Decision.Unavailable unavailable -> {
                response.header(HeaderNames.RETRY_AFTER, "1");
                throw new ApiException(ApiError.limitsUnavailable());
            }
        };
    }

    /** Settles to the tokens the answer reported (the estimate when it reported none), or releases. */
    static void settle(Held held, CallReport report) {
        if (!report.answerBegan()) {
            held.reservation().release();
            return;
        }
        TokenUsage usage = report.usage();
        long used = usage.promptTokens() >= 0 && usage.completionTokens() >= 0
                ? usage.promptTokens() + usage.completionTokens() : usage.totalTokens();
        held.reservation().settle(used >= 0 ? used : held.estimate());
    }

    private static String message(Decision.Refused refused, Limits limits, long estimate) {
        if (refused.limit().equals("requests")) {
            return "Rate limit reached for this workspace key: " + limits.rpm() + " requests a minute. Retry after"
                    + " the window resets (Retry-After).";
        }
        if (estimate > limits.tpm()) {
            return "This request may use up to " + estimate + " tokens (its prompt, estimated from its length, and"
                    + " its max_completion_tokens or the model's output cap), more than this workspace key's "
                    + limits.tpm() + " tokens a minute: set a lower max_completion_tokens.";
        }
        return "Rate limit reached for this workspace key: " + limits.tpm() + " tokens a minute, "
                + refused.quota().remainingTokens() + " left in this window and this request may use up to "
                + estimate + ". Retry after the window resets (Retry-After), or set a lower max_completion_tokens.";
    }

    /** What the model may write when the request sets no maximum: its context window, by its catalogue. */
    private static long outputCap(Destination destination) {
        return switch (destination) {
            case Route route -> route.provider().catalogue().stream()
                    .filter(model -> model.id().equals(route.upstreamModel()))
                    .mapToLong(ModelEntry::contextLength).findFirst().orElse(TokenEstimate.DEFAULT_OUTPUT_CAP);
            case AutoChain chain -> TokenEstimate.DEFAULT_OUTPUT_CAP;
        };
    }
}
