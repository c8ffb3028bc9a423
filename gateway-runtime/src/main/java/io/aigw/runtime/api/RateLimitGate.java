package io.aigw.runtime.api;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.limits.BudgetClaim;
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
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.routing.AutoChain;
import io.aigw.runtime.routing.Destination;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.store.KeyPolicy;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerResponse;
import java.time.Instant;
import java.util.Optional;

/**
 * A chat completion's passage through its key's rate limits and budget: before it is forwarded, one
 * request, its estimated tokens and its estimated cost are reserved, or it is refused with 429 and
 * no upstream is called; after, the reservation is settled to what the answer used and cost, or
 * released when no answer began.
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
     * Reserves for {@code chat} against the caller's limits and budget and puts the key's
     * {@code x-ratelimit-*} headers on the answer.
     *
     * @throws ApiException 429 when it does not fit, 403 when the key has a budget and the model no
     *                      price, 503 when the limit store cannot tell and the gateway is told to deny then
     */
    Held admit(Caller caller, ChatRequest chat, int bodyBytes, Destination destination, PriceBook prices,
               ServerResponse response) {
        KeyPolicy policy = caller.policy();
        if (!policy.reserves()) {
            return Held.NOTHING;
        }
        Limits limits = Limits.of(policy);
        long promptTokens = TokenEstimate.promptTokens(bodyBytes);
        long completionTokens = chat.maxOutputTokens() >= 0 ? chat.maxOutputTokens() : outputCap(destination);
        long estimate = promptTokens + completionTokens;
        BudgetClaim budget = policy.budget().isEmpty() ? BudgetClaim.NONE
                : claim(policy, costBound(chat, destination, prices, promptTokens, completionTokens));
        return switch (limiter.reserve(caller.keyId(), limits, estimate, budget)) {
            case Decision.Admitted admitted -> {
                admitted.quota().ifPresent(quota -> LimitHeaders.put(response, quota));
                yield new Held(admitted.reservation(), estimate);
            }
            case Decision.Refused refused when refused.limit().equals("budget") -> {
                LimitHeaders.put(response, refused.quota());
                metrics.rateLimited(refused.limit());
                throw new ApiException(ApiError.insufficientQuota(budgetMessage(policy, refused, budget)));
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

    /**
     * Settles to the tokens the answer reported (the estimate when it reported none) and to what the
     * request cost, or releases when no answer began.
     *
     * @param cost what the request cost, its billed failed attempts included; empty when unknown, and
     *             the estimate stands
     */
    static void settle(Held held, CallReport report, Optional<Usd> cost) {
        if (!report.answerBegan()) {
            held.reservation().release();
            return;
        }
        TokenUsage usage = report.usage();
        long used = usage.promptTokens() >= 0 && usage.completionTokens() >= 0
                ? usage.promptTokens() + usage.completionTokens() : usage.totalTokens();
        held.reservation().settle(used >= 0 ? used : held.estimate(), cost.map(Usd::nanos).orElse(-1L));
    }

    private static BudgetClaim claim(KeyPolicy policy, Usd cost) {
        return BudgetClaim.in(policy.period(), Instant.now(), policy.budget().get().nanos(), cost.nanos());
    }

    /**
     * The most the request may cost: its estimated prompt and its completion limit at its model's
     * price. {@code gateway/auto} at the dearest priced default model of its chain, since any of
     * them may answer; a model without a price cannot be bounded, and is refused.
     */
    private static Usd costBound(ChatRequest chat, Destination destination, PriceBook prices, long promptTokens,
                                 long completionTokens) {
        Optional<Usd> bound = switch (destination) {
            case Route route -> prices.price(route.provider().prefix(), route.upstreamModel())
                    .map(price -> price.bound(promptTokens, completionTokens));
            case AutoChain chain -> chain.byPriority().stream()
                    .flatMap(provider -> prices.price(provider.prefix(), provider.defaultModel()).stream())
                    .map(price -> price.bound(promptTokens, completionTokens))
                    .max(Usd::compareTo);
        };
        return bound.orElseThrow(() -> new ApiException(ApiError.modelNotPriced(chat.model())));
    }

    private static String budgetMessage(KeyPolicy policy, Decision.Refused refused, BudgetClaim budget) {
        Usd limit = policy.budget().get();
        Usd left = limit.leftAfter(new Usd(refused.quota().spentNanos()));
        return "This workspace key's budget of USD " + plain(limit) + " " + policy.period().phrase() + " has USD "
                + plain(left) + " left (requests in flight included), and this request may cost up to USD "
                + plain(new Usd(budget.costNanos())) + " (its prompt, estimated from its length, and its"
                + " max_completion_tokens or the model's output cap): set a lower max_completion_tokens, or ask an"
                + " admin to raise the budget.";
    }

    private static String plain(Usd usd) {
        return usd.shortestDollars().toPlainString();
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

    /**
     * What the model may write when the request sets no maximum: its catalogue's
     * {@code max_output_tokens}, else its context window.
     */
    private static long outputCap(Destination destination) {
        return switch (destination) {
            case Route route -> route.provider().catalogue().stream()
                    .filter(model -> model.id().equals(route.upstreamModel()))
                    .mapToLong(ModelEntry::outputCap).findFirst().orElse(TokenEstimate.DEFAULT_OUTPUT_CAP);
            case AutoChain chain -> TokenEstimate.DEFAULT_OUTPUT_CAP;
        };
    }
}
