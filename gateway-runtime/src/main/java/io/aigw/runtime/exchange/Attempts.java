package io.aigw.runtime.exchange;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.plugin.UpstreamKey;
import io.aigw.runtime.pool.KeyPools;
import io.aigw.runtime.pool.Lease;
import io.aigw.runtime.pool.Session;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.routing.AutoChain;
import io.aigw.runtime.routing.Destination;
import io.aigw.runtime.routing.Fallbacks;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.routing.RoutingTable;
import io.aigw.runtime.transport.CallerWatch;
import io.aigw.runtime.upstream.Attempt;
import io.aigw.runtime.upstream.CallOutcome;
import io.aigw.runtime.upstream.CallerSide;
import io.aigw.runtime.upstream.FallbackChain;
import io.aigw.runtime.upstream.Failure;
import io.aigw.runtime.upstream.Hangup;
import io.aigw.runtime.upstream.Upstream;
import io.helidon.webserver.http.ServerResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The attempts of one exchange: along its one route, or along {@code gateway/auto}'s chain as
 * {@link FallbackChain} decides, with the caller watched once a call takes a while, so that a
 * caller that leaves ends it rather than its timeout. On each route, the provider's keys are tried
 * as its pool chooses them ({@link KeyPools}), the next key after a failure another key may not
 * share ({@link KeyVerdict}), before the next provider of the chain.
 */
final class Attempts {
    /** The longest wait before another key after an upstream's failure, and the first; jittered. */
    private static final long MAX_BACKOFF_MILLIS = 250;
    private static final long FIRST_BACKOFF_MILLIS = 20;

    private final Upstream upstream;
    private final KeyPools pools;
    private final ExchangeListener listener;
    private final long totalNanos;

    /** @param totalNanos {@code gateway.timeouts.total}: how long a request may take from its arrival */
    Attempts(Upstream upstream, KeyPools pools, ExchangeListener listener, long totalNanos) {
        this.upstream = upstream;
        this.pools = pools;
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
                case Route route -> onKeys(exchange, requireKey(route, exchange.model()), caller, tried);
                case AutoChain chain -> FallbackChain.tryInOrder(RoutingTable.AUTO_MODEL, chain.routes(provider ->
                                provider.serves(exchange.endpoint().api()) && pools.usable(provider)),
                        route -> onKeys(exchange, route, caller, tried),
                        attempt -> listener.passedOver(exchange, attempt));
                case Fallbacks alias -> FallbackChain.tryInOrder(alias.alias(), alias.order(ThreadLocalRandom.current())
                                .stream()
                                .filter(route -> route.provider().serves(exchange.endpoint().api())
                                        && pools.usable(route.provider())).toList(),
                        route -> onKeys(exchange, route, caller, tried),
                        attempt -> listener.passedOver(exchange, attempt));
            };
        }
    }

    /**
     * Tries the keys of the route's provider, each at most once, until one ends the exchange or
     * none is left: then the last failure is the route's.
     */
    private CallOutcome onKeys(Exchange exchange, Route route, CallerSide caller, List<Attempt> tried) {
        // A session only picks among keys. Not looked for otherwise: a lookup that finds none walks
        // every parent context, each under its lock.
        String session = route.provider().keys().size() < 2 ? null
                : exchange.context().get(Session.class).map(Session::id).orElse(null);
        Set<String> keysTried = new HashSet<>(4);
        CallOutcome last = null;
        while (true) {
            Optional<Lease> chosen = pools.choose(route.provider(), session, keysTried);
            if (chosen.isEmpty()) {
                return last != null ? last : Upstream.unattempted(route, noKey(route.provider()));
            }
            if (last != null && KeyVerdict.backsOff(last) && !backOff(keysTried.size(), caller.endsAt())) {
                chosen.get().close();
                return last;
            }
            CallOutcome outcome;
            try (Lease lease = chosen.get()) {
                keysTried.add(lease.key().name());
                outcome = attempt(exchange, route, lease.key(), caller, tried);
                if (!KeyVerdict.tell(lease, outcome)) {
                    return outcome;
                }
            }
            last = outcome;
        }
    }

    /** Why no key of {@code provider} may be called, as the caller is told. */
    private Failure noKey(Provider provider) {
        return switch (pools.unusable(provider)) {
            case COOLING -> Failure.keysCooling(provider, pools.coolingFor(provider));
            case FAILED -> Failure.keysRefused(provider);
            default -> Failure.keysEjected(provider);
        };
    }

    /**
     * Waits a moment before the next key after an upstream's failure: up to twice as long as the
     * time before, at random (full jitter), never past the request's end; false when the request's
     * time is up.
     */
    private static boolean backOff(int failures, long endsAt) {
        long ceiling = Math.min(MAX_BACKOFF_MILLIS, FIRST_BACKOFF_MILLIS << Math.min(failures - 1, 8));
        long wait = TimeUnit.MILLISECONDS.toNanos(ThreadLocalRandom.current().nextLong(ceiling + 1));
        if (endsAt - System.nanoTime() <= wait) {
            return false;
        }
        try {
            Thread.sleep(Duration.ofNanos(wait));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private CallOutcome attempt(Exchange exchange, Route route, UpstreamKey key, CallerSide caller,
                                List<Attempt> tried) {
        long waitedBefore = 0;
        for (Attempt attempt : tried) {
            waitedBefore += attempt.upstreamNanos();
        }
        listener.attemptStarted(exchange, route);
        CallOutcome outcome = upstream.attempt(exchange.request(), route, key, caller, waitedBefore);
        tried.add(outcome.attempt());
        listener.attemptEnded(exchange, outcome.attempt());
        return outcome;
    }

    private static Route requireKey(Route route, String model) {
        Provider provider = route.provider();
        if (!provider.hasKey()) {
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
