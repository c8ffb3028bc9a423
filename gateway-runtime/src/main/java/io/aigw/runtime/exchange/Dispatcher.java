package io.aigw.runtime.exchange;

import io.aigw.runtime.catalogue.UpstreamCatalogues;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.limits.RateLimiter;
import io.aigw.runtime.pool.KeyPools;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.routing.CurrentRoutes;
import io.aigw.runtime.routing.Destination;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.routing.RoutingSnapshot;
import io.aigw.runtime.routing.RoutingTable;
import io.aigw.runtime.store.KeyPolicy;
import io.aigw.runtime.upstream.Attempt;
import io.aigw.runtime.upstream.CallOutcome;
import io.aigw.runtime.upstream.CallOutcome.Answered;
import io.aigw.runtime.upstream.CallOutcome.CallerLeft;
import io.aigw.runtime.upstream.CallOutcome.FailedAfterFirstByte;
import io.aigw.runtime.upstream.CallOutcome.FailedBeforeFirstByte;
import io.aigw.runtime.upstream.Failure;
import io.aigw.runtime.upstream.Upstream;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Carries an exchange from its endpoint's adapter to an answer, the same way for every endpoint:
 * admission (its key's allowed models, then a rate-limit and budget reservation,
 * {@link RateLimitGate}), routing, the attempts ({@link Attempts}), and the settlement
 * ({@link Settlement}); the {@link ExchangeListener} hears what happened.
 */
public final class Dispatcher {
    private final CurrentRoutes routing;
    private final UpstreamCatalogues catalogues;
    private final RateLimitGate limits;
    private final Attempts attempts;
    private final ExchangeListener listener;
    private final boolean costHeader;

    /**
     * @param total      {@code gateway.timeouts.total}: how long an exchange may take from its arrival
     * @param costHeader whether a plain answer states its cost in {@link Upstream#COST_HEADER}
     */
    public Dispatcher(CurrentRoutes routing, Upstream upstream, KeyPools pools, UpstreamCatalogues catalogues,
                      RateLimiter limiter, ExchangeListener listener, Duration total, boolean costHeader) {
        this.routing = routing;
        this.catalogues = catalogues;
        this.limits = new RateLimitGate(limiter);
        this.attempts = new Attempts(upstream, pools, listener, total.toNanos());
        this.listener = listener;
        this.costHeader = costHeader;
    }

    /**
     * Answers {@code exchange} through {@code response}, unless it fails as a whole before any
     * provider is called.
     *
     * @throws ApiException 403 when its key may not use its model or its model has no price for a
     *                      key's budget, 400 when its provider does not serve its endpoint, 429 when a limit refuses it, 400 when it is over its key's
     *                      {@code tpm} alone or its provider has no key, 502 when {@code gateway/auto}
     *                      has no usable provider, 503 when the limit store cannot tell
     * @throws CloseConnectionException when a plain answer was cut short or the caller left: the
     *                                  caller's connection must close, since the answer cannot end well
     */
    public void dispatch(Exchange exchange, ServerResponse response) {
        listener.exchangeStarted(exchange);
        List<Attempt> tried = new ArrayList<>(2);
        int status = 0;
        long failureSentAt = -1;
        Optional<String> refusedBy = Optional.empty();
        // Held to the end, a stream's included: the request finishes on the providers it started with.
        RoutingSnapshot routes = routing.acquire();
        RateLimitGate.Held held = RateLimitGate.Held.NOTHING;
        PriceBook prices = routes.prices();
        try {
            // Refused once it has begun, as every policy is: logged, counted and recorded with its model.
            if (!allowed(exchange, routes.table())) {
                throw new ApiException(ApiError.modelNotAllowed(exchange.model()));
            }
            Destination destination = routes.table().destination(exchange.model(), exchange.endpoint().api());
            if (destination instanceof Route route && !route.provider().serves(exchange.endpoint().api())) {
                throw new ApiException(ApiError.apiNotServed(exchange.model(), route.provider().prefix(),
                        exchange.endpoint().path()));
            }
            // A model of the catalogue its upstream no longer lists is not there any more.
            if (destination instanceof Route route && catalogues.withdrawn(route.provider(), route.upstreamModel())) {
                throw new ApiException(ApiError.modelNotFound(exchange.model()));
            }
            switch (limits.admit(exchange, destination, prices, response)) {
                case RateLimitGate.Held admitted -> held = admitted;
                case RateLimitGate.Refused refused -> {
                    refusedBy = Optional.of(refused.limit());
                    throw refused.error();
                }
            }
            CallOutcome outcome = attempts.run(exchange, destination, response,
                    costHeader ? Optional.of(prices) : Optional.empty(), tried);
            switch (outcome) {
                case Answered answered -> status = answered.attempt().status();
                case FailedBeforeFirstByte(Attempt attempt, Failure failure) -> {
                    status = failure.status().code();
                    failureSentAt = System.nanoTime();
                    failure.send(response, exchange.endpoint().errorShape(), exchange.requestId());
                }
                case FailedAfterFirstByte(Attempt attempt, String message, boolean answerEnds) -> {
                    status = attempt.status();
                    if (!answerEnds) {
                        throw new CloseConnectionException(message);
                    }
                }
                case CallerLeft left -> {
                    status = CallerLeft.STATUS;
                    throw new CloseConnectionException("The caller left before its answer was whole");
                }
            }
        } catch (ApiException e) {
            status = e.error().status().code();
            throw e;
        } finally {
            routes.release();
            long firstByte = tried.isEmpty() || tried.get(tried.size() - 1).firstByteNanos() < 0 ? failureSentAt
                    : tried.get(tried.size() - 1).firstByteNanos();
            ExchangeRecord record = Settlement.settle(exchange, tried, status, firstByte, limits, held, prices,
                    refusedBy);
            listener.exchangeEnded(record);
            exchange.requestEnd().exchangeEnded(record);
        }
    }

    /**
     * Whether the caller's key may use the model asked for: by the id asked, or, for a bare id that
     * goes to its API's home ({@code claude-sonnet-4-5} on the Messages API), by the id it has there
     * with its provider's prefix ({@code anthropic/claude-sonnet-4-5}), so that one allow-list holds
     * on every surface.
     */
    private static boolean allowed(Exchange exchange, RoutingTable table) {
        KeyPolicy policy = exchange.caller().policy();
        if (ModelAccess.allows(policy, table, exchange.model())) {
            return true;
        }
        if (exchange.model().indexOf('/') >= 0) {
            return false;
        }
        try {
            return table.destination(exchange.model(), exchange.endpoint().api()) instanceof Route route
                    && policy.allows(route.provider().publicId(route.upstreamModel()));
        } catch (ApiException e) {
            return false;
        }
    }
}
