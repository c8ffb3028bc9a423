package io.aigw.runtime.exchange;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.routing.AutoChain;
import io.aigw.runtime.routing.Destination;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.transport.CallerWatch;
import io.aigw.runtime.upstream.Attempt;
import io.aigw.runtime.upstream.CallOutcome;
import io.aigw.runtime.upstream.CallerSide;
import io.aigw.runtime.upstream.FallbackChain;
import io.aigw.runtime.upstream.Hangup;
import io.aigw.runtime.upstream.Upstream;
import io.helidon.webserver.http.ServerResponse;
import java.util.List;
import java.util.Optional;

/**
 * The attempts of one exchange: along its one route, or along {@code gateway/auto}'s chain as
 * {@link FallbackChain} decides, with the caller watched once a call takes a while, so that a
 * caller that leaves ends it rather than its timeout.
 */
final class Attempts {
    private final Upstream upstream;
    private final ExchangeListener listener;
    private final long totalNanos;

    /** @param totalNanos {@code gateway.timeouts.total}: how long a request may take from its arrival */
    Attempts(Upstream upstream, ExchangeListener listener, long totalNanos) {
        this.upstream = upstream;
        this.listener = listener;
        this.totalNanos = totalNanos;
    }

    /**
     * Tries the routes to {@code destination} until one ends the exchange, adding each attempt to
     * {@code tried} as it ends.
     *
     * @param costHeader the prices to state a plain answer's cost by; empty when that header is off
     * @return the outcome of the last attempt, whose failure (if it failed before the first byte) is
     *         still to be sent
     * @throws ApiException 400 when the one provider has no key, 502 when {@code gateway/auto} has no usable one
     */
    CallOutcome run(Exchange exchange, Destination destination, ServerResponse response,
                    Optional<PriceBook> costHeader, List<Attempt> tried) {
        try (CallerWatch watch = CallerWatch.forThisRequest()) {
            CallerSide caller = new CallerSide(response, new Hangup(watch::start), exchange.requestId(),
                    exchange.startedNanos(), exchange.startedNanos() + totalNanos, costHeader, exchange.context());
            return switch (destination) {
                case Route route -> attempt(exchange, requireKey(route, exchange.model()), caller, tried);
                case AutoChain chain -> FallbackChain.tryInOrder(chain.routes(provider ->
                                provider.serves(exchange.endpoint().api()) && upstream.usable(provider)),
                        route -> attempt(exchange, route, caller, tried),
                        attempt -> listener.passedOver(exchange, attempt));
            };
        }
    }

    private CallOutcome attempt(Exchange exchange, Route route, CallerSide caller, List<Attempt> tried) {
        long waitedBefore = 0;
        for (Attempt attempt : tried) {
            waitedBefore += attempt.upstreamNanos();
        }
        listener.attemptStarted(exchange, route);
        CallOutcome outcome = upstream.attempt(exchange.request(), route, caller, waitedBefore);
        tried.add(outcome.attempt());
        listener.attemptEnded(exchange, outcome.attempt());
        return outcome;
    }

    private static Route requireKey(Route route, String model) {
        Provider provider = route.provider();
        if (provider.apiKey().isEmpty()) {
            String serves = provider.catchAll() ? " (the catch-all, which serves every prefix no other provider"
                    + " claims)" : "";
            throw new ApiException(ApiError.providerNotConfigured("The model '" + model + "' goes to the"
                    + " provider '" + provider.prefix() + "'" + serves + ", which has no API key configured on this"
                    + " gateway: its operator sets " + provider.apiKeyVariable() + " (or providers." + provider.name()
                    + ".api-key) where the gateway runs."));
        }
        return route;
    }
}
