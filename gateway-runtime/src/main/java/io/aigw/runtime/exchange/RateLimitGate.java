package io.aigw.runtime.exchange;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.error.ErrorShape;
import io.aigw.runtime.limits.BudgetClaim;
import io.aigw.runtime.limits.Decision;
import io.aigw.runtime.limits.LimitHeaders;
import io.aigw.runtime.limits.Limits;
import io.aigw.runtime.limits.OutputEstimate;
import io.aigw.runtime.limits.Quota;
import io.aigw.runtime.limits.RateLimiter;
import io.aigw.runtime.limits.RecentCompletions;
import io.aigw.runtime.limits.Reservation;
import io.aigw.runtime.limits.TokenEstimate;
import io.aigw.runtime.metering.TokenUsage;
import io.aigw.runtime.plugin.ModelEntry;
import io.aigw.runtime.pricing.ModelPrice;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.routing.AutoChain;
import io.aigw.runtime.routing.Destination;
import io.aigw.runtime.routing.Fallbacks;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.store.KeyPolicy;
import io.aigw.runtime.upstream.Attempt;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.ServerResponse;
import java.time.Instant;
import java.util.Optional;

/**
 * An exchange's passage through its key's rate limits and budget: before it is forwarded, one
 * request, its estimated tokens and its estimated cost are reserved, or it is refused with 429 and
 * no upstream is called (400 when its estimate alone is over the key's {@code tpm}: no retry can
 * help it); after, the reservation is settled to what the answer used and cost, or released when no
 * answer began, and a whole answer's completion tokens join its model's recent ones.
 */
final class RateLimitGate {
    private final RateLimiter limiter;
    private final RecentCompletions recent = new RecentCompletions();

    RateLimitGate(RateLimiter limiter) {
        this.limiter = limiter;
    }

    /** Whether an exchange may go on: held within its limits, or refused by one. */
    sealed interface Admission {
    }

    /** A reservation and the tokens it was made for, which stand when the answer reports none. */
    record Held(Reservation reservation, long estimate) implements Admission {
        static final Held NOTHING = new Held(Reservation.NONE, 0);
    }

    /**
     * Refused by the key's {@code limit} ({@code requests}, {@code tokens} or {@code budget}), with
     * the {@code error} the caller gets.
     */
    record Refused(String limit, ApiException error) implements Admission {
    }

    /**
     * Reserves for {@code exchange} against the caller's limits and budget and puts the key's
     * {@code x-ratelimit-*} headers on the answer.
     *
     * @throws ApiException 400 when its estimate alone is over the key's {@code tpm}, 403 when the key
     *                      has a budget and the model no price, 503 when the limit store cannot tell and
     *                      the gateway is told to deny then
     */
    Admission admit(Exchange exchange, Destination destination, PriceBook prices, ServerResponse response) {
        KeyPolicy policy = exchange.caller().policy();
        if (!policy.reserves()) {
            return Held.NOTHING;
        }
        Limits limits = Limits.of(policy);
        if (!exchange.endpoint().billed()) {
            // A token count is free: a request against the key's rpm, nothing against its tpm or budget.
            return reserve(exchange, response, limits, 0, BudgetClaim.NONE);
        }
        long promptTokens = TokenEstimate.promptTokens(exchange.body().length);
        long cap = exchange.maxOutputTokens() >= 0 ? exchange.maxOutputTokens() : outputCap(destination);
        OutputEstimate output = exchange.maxOutputTokens() >= 0 ? OutputEstimate.requested(cap)
                : recent.estimate(exchange.model(), cap);
        long estimate = promptTokens + output.tokens();
        if (limits.tpm() > 0 && estimate > limits.tpm()) {
            throw new ApiException(ApiError.requestExceedsTpm(overTpm(limits, promptTokens, output)));
        }
        // A budget reserves the most the request may cost, the model's whole cap: the cap bounds what
        // one request can spend beyond its reservation.
        BudgetClaim budget = policy.budget().isEmpty() ? BudgetClaim.NONE
                : claim(policy, costBound(exchange.model(), destination, prices, promptTokens, cap));
        return reserve(exchange, response, limits, estimate, budget);
    }

    /** Reserves one request, {@code estimate} tokens and {@code budget} against the caller's key. */
    private Admission reserve(Exchange exchange, ServerResponse response, Limits limits, long estimate,
                              BudgetClaim budget) {
        KeyPolicy policy = exchange.caller().policy();
        return switch (limiter.reserve(exchange.caller().keyId(), limits, estimate, budget, exchange.context())) {
            case Decision.Admitted admitted -> {
                admitted.quota().ifPresent(quota -> limitHeaders(exchange, response, quota));
                yield new Held(admitted.reservation(), estimate);
            }
            case Decision.Refused refused when refused.limit().equals("budget") -> {
                limitHeaders(exchange, response, refused.quota());
                yield new Refused(refused.limit(),
                        new ApiException(ApiError.insufficientQuota(budgetMessage(policy, refused, budget))));
            }
            case Decision.Refused refused -> {
                limitHeaders(exchange, response, refused.quota());
                response.header(HeaderNames.RETRY_AFTER, LimitHeaders.retryAfter(refused.quota()));
                yield new Refused(refused.limit(),
                        new ApiException(ApiError.rateLimited(refused.limit(), message(refused, limits, estimate))));
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
     * @param model the model the caller asked for, whose recent answers a whole one joins
     * @param last  the attempt made last
     * @param cost  what the request cost, its billed failed attempts included; empty when unknown, and
     *              the estimate stands
     */
    void settle(Held held, String model, Attempt last, Optional<Usd> cost) {
        if (!last.answerBegan()) {
            held.reservation().release();
            return;
        }
        TokenUsage usage = last.usage();
        if (last.ending() != Attempt.Ending.CUT) {
            recent.answered(model, usage.completionTokens());
        }
        long used = usage.promptTokens() >= 0 && usage.completionTokens() >= 0
                ? usage.promptTokens() + usage.completionTokens() : usage.totalTokens();
        held.reservation().settle(used >= 0 ? used : held.estimate(), cost.map(Usd::nanos).orElse(-1L));
    }

    /** The key's limit headers, as the SDKs of the surface the exchange came through read them. */
    private static void limitHeaders(Exchange exchange, ServerResponse response, Quota quota) {
        if (exchange.endpoint().errorShape() == ErrorShape.ANTHROPIC) {
            LimitHeaders.putAnthropic(response, quota);
        } else {
            LimitHeaders.put(response, quota);
        }
    }

    private static BudgetClaim claim(KeyPolicy policy, Usd cost) {
        return BudgetClaim.in(policy.period(), Instant.now(), policy.budget().get().nanos(), cost.nanos());
    }

    /**
     * The most the request may cost: its estimated prompt and its completion limit at its model's
     * price. {@code gateway/auto} at the dearest priced default model of its chain, since any of
     * them may answer; a model without a price cannot be bounded, and is refused.
     */
    private static Usd costBound(String model, Destination destination, PriceBook prices, long promptTokens,
                                 long completionTokens) {
        Optional<Usd> bound = switch (destination) {
            case Route route -> prices.price(route.provider().prefix(), route.upstreamModel())
                    .map(price -> price.bound(promptTokens, completionTokens));
            case AutoChain chain -> chain.byPriority().stream()
                    .flatMap(provider -> prices.price(provider.prefix(), provider.defaultModel()).stream())
                    .map(price -> price.bound(promptTokens, completionTokens))
                    .max(Usd::compareTo);
            case Fallbacks alias -> dearest(alias, prices, promptTokens, completionTokens);
        };
        return bound.orElseThrow(() -> new ApiException(ApiError.modelNotPriced(model)));
    }

    /** An alias of several models at its dearest: any may answer; one without a price cannot be bounded. */
    private static Optional<Usd> dearest(Fallbacks alias, PriceBook prices, long promptTokens,
                                         long completionTokens) {
        Usd dearest = null;
        for (Route route : alias.routes()) {
            Optional<ModelPrice> price = prices.price(route.provider().prefix(), route.upstreamModel());
            if (price.isEmpty()) {
                return Optional.empty();
            }
            Usd bound = price.get().bound(promptTokens, completionTokens);
            dearest = dearest == null || bound.compareTo(dearest) > 0 ? bound : dearest;
        }
        return Optional.ofNullable(dearest);
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
        return "Rate limit reached for this workspace key: " + limits.tpm() + " tokens a minute, "
                + refused.quota().remainingTokens() + " left in this window and this request may use up to "
                + estimate + ". Retry after the window resets (Retry-After), or set a lower max_completion_tokens.";
    }

    private static String overTpm(Limits limits, long promptTokens, OutputEstimate output) {
        return "This request is estimated at " + (promptTokens + output.tokens()) + " tokens, more than this"
                + " workspace key's limit of " + limits.tpm() + " tokens a minute, so it can never be admitted: "
                + promptTokens + " for its prompt (its body's length over " + TokenEstimate.BYTES_PER_TOKEN + ") and "
                + output.tokens() + " for its answer (" + output.source().phrase() + "). Set a lower"
                + " max_completion_tokens or send a shorter prompt, or ask an admin to raise the key's tpm.";
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
            // The largest of its models': any of them may answer.
            case Fallbacks alias -> alias.routes().stream().mapToLong(RateLimitGate::outputCap).max()
                    .orElse(TokenEstimate.DEFAULT_OUTPUT_CAP);
        };
    }
}
