package io.aigw.runtime.exchange;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.limits.Decision;
import io.aigw.runtime.limits.LimitHeaders;
import io.aigw.runtime.limits.Limits;
import io.aigw.runtime.limits.RateLimiter;
import io.aigw.runtime.limits.Reservation;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.plugin.UpstreamKey;
import io.aigw.runtime.routing.CurrentRoutes;
import io.aigw.runtime.routing.RoutingSnapshot;
import io.aigw.runtime.transport.CallerWatch;
import io.aigw.runtime.upstream.CallOutcome;
import io.aigw.runtime.upstream.CallOutcome.Answered;
import io.aigw.runtime.upstream.CallOutcome.CallerLeft;
import io.aigw.runtime.upstream.CallOutcome.FailedAfterFirstByte;
import io.aigw.runtime.upstream.CallOutcome.FailedBeforeFirstByte;
import io.aigw.runtime.upstream.CallerSide;
import io.aigw.runtime.upstream.Hangup;
import io.aigw.runtime.upstream.StoredCall;
import io.aigw.runtime.upstream.Upstream;
import io.helidon.common.context.Context;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * Carries a call about something an upstream created earlier (a stored response) to the provider
 * that created it: one request against its key's {@code rpm}, no tokens and no cost, since such
 * calls generate nothing; the answer relayed whatever its status.
 */
public final class StoredCalls {
    private final CurrentRoutes routing;
    private final Upstream upstream;
    private final RateLimiter limiter;
    private final long totalNanos;

    /** @param total {@code gateway.timeouts.total}: how long a call may take from its arrival */
    public StoredCalls(CurrentRoutes routing, Upstream upstream, RateLimiter limiter, Duration total) {
        this.routing = routing;
        this.upstream = upstream;
        this.limiter = limiter;
        this.totalNanos = total.toNanos();
    }

    /**
     * Sends {@code call} to the provider named {@code providerName}, with its upstream key named
     * {@code keyName} (its first key, should that one have left the pool since), and answers the caller.
     *
     * @param context      the HTTP request's context (a trace to carry upstream)
     * @param startedNanos {@link System#nanoTime()} when the request came
     * @throws ApiException 429 when the key's rpm refuses it, 503 when the limit store cannot tell, 502
     *                      when the provider is no longer installed or has no key
     * @throws CloseConnectionException when the answer was cut short or the caller left
     */
    public void forward(Context context, Caller caller, String providerName, String keyName, StoredCall call, String requestId,
                        long startedNanos, ServerResponse response) {
        Reservation reservation = admit(caller, response);
        RoutingSnapshot routes = routing.acquire();
        boolean answered = false;
        try {
            Provider provider = routes.table().byPriority().stream()
                    .filter(candidate -> candidate.name().equals(providerName)).findFirst()
                    .filter(Provider::hasKey)
                    .orElseThrow(() -> new ApiException(ApiError.upstream("The provider '" + providerName
                            + "' that created this response is no longer installed on this gateway, or has no key.")));
            UpstreamKey key = provider.keys().stream().filter(candidate -> candidate.name().equals(keyName))
                    .findFirst().orElse(provider.keys().get(0));
            CallOutcome outcome;
            try (CallerWatch watch = CallerWatch.forThisRequest()) {
                outcome = upstream.call(call, provider, key, new CallerSide(response, new Hangup(watch::start),
                        requestId, startedNanos, startedNanos + totalNanos, Optional.empty(), context));
            }
            answered = outcome.attempt().answerBegan();
            switch (outcome) {
                case Answered ignored -> {
                }
                case FailedBeforeFirstByte failed -> failed.failure().send(response);
                case FailedAfterFirstByte cut -> throw new CloseConnectionException(cut.message());
                case CallerLeft left -> throw new CloseConnectionException("The caller left before its answer was whole");
            }
        } finally {
            routes.release();
            if (answered) {
                reservation.settle(0, -1);
            } else {
                reservation.release();
            }
        }
    }

    /** One request against the key's {@code rpm}; its tokens and budget are not touched. */
    private Reservation admit(Caller caller, ServerResponse response) {
        if (caller.policy().rpm().isEmpty()) {
            return Reservation.NONE;
        }
        return switch (limiter.reserve(caller.keyId(), new Limits(caller.policy().rpm().getAsLong(), 0), 0)) {
            case Decision.Admitted admitted -> {
                admitted.quota().ifPresent(quota -> LimitHeaders.put(response, quota));
                yield admitted.reservation();
            }
            case Decision.Refused refused -> {
                LimitHeaders.put(response, refused.quota());
                response.header(HeaderNames.RETRY_AFTER, LimitHeaders.retryAfter(refused.quota()));
                throw new ApiException(ApiError.rateLimited(refused.limit(), "Rate limit reached for this"
                        + " workspace key: " + caller.policy().rpm().getAsLong() + " requests a minute. Retry after the"
                        + " window resets (Retry-After)."));
            }
            case Decision.Unavailable unavailable -> {
                response.header(HeaderNames.RETRY_AFTER, "1");
                throw new ApiException(ApiError.limitsUnavailable());
            }
        };
    }
}
