package io.aigw.runtime.upstream;

import io.aigw.runtime.config.UpstreamTimeouts;
import io.aigw.runtime.metering.TokenUsage;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.plugin.UpstreamKey;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.transport.TransportOptions.Choice;
import io.helidon.common.tls.Tls;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;

/**
 * The upstream layer's entry: makes one attempt along one route ({@link UpstreamCall}), answers the
 * caller when the upstream answered well, and returns how it ended with its {@link Attempt}. Which
 * routes are tried, and what the caller gets when none answered, is the exchange's to decide.
 */
public final class Upstream implements AutoCloseable {
    /** Names the provider that served the answer. */
    public static final HeaderName PROVIDER_HEADER = HeaderNames.create("X-Gateway-Provider");
    /** States a plain answer's cost in US dollars, when {@code gateway.cost-header} is on. */
    public static final HeaderName COST_HEADER = HeaderNames.create("X-Gateway-Cost");

    /** Built on first use: each loads a TLS trust store, which providers never called need not pay for. */
    private final UpstreamClients clients;
    private final Deadlines deadlines;
    private final UpstreamCall call;

    /**
     * Calls the providers of the routing snapshots {@link #retain retained}.
     *
     * @param traced whether tracing is on, and so whether an attempt has a trace to send on
     */
    public Upstream(UpstreamTimeouts timeouts, Optional<Tls> tls, Choice upstreamPool, boolean traced) {
        this.deadlines = new Deadlines(Deadlines.tickFor(timeouts));
        this.clients = new UpstreamClients((provider, key) -> new UpstreamClient(provider, key, timeouts, tls,
                upstreamPool));
        this.call = new UpstreamCall(clients::clientFor, timeouts, deadlines, traced);
    }

    /**
     * The gateway begins to stop: a call still waiting on its upstream when {@code gracePeriod} has
     * passed is ended then, and answered 503 {@code shutting_down}.
     */
    public void stopping(Duration gracePeriod) {
        deadlines.stopAt(System.nanoTime() + gracePeriod.toNanos());
    }

    /**
     * Sends {@code request} along {@code route} with {@code key}, one of its provider's, and relays a successful answer to the caller. The
     * call ends early when the caller's hangup hears that it left, and at the caller's
     * {@link CallerSide#endsAt()}. A failure before the caller's first byte is returned unsent.
     *
     * @param waitedBefore the request's wait on the upstreams tried before this one, for the
     *                     {@code Server-Timing} header
     */
    public CallOutcome attempt(UpstreamRequest request, Route route, UpstreamKey key, CallerSide caller,
                               long waitedBefore) {
        return call.attempt(request, route, key, caller, waitedBefore);
    }

    /**
     * Sends {@code call} to {@code provider} with {@code key} and relays its answer, whatever its
     * status, except that a failure before the caller's first byte is returned unsent, as
     * {@link #attempt}'s is.
     */
    public CallOutcome call(StoredCall call, Provider provider, UpstreamKey key, CallerSide caller) {
        return this.call.stored(call, provider, key, caller).withKey(key.name());
    }

    /** The outcome of a route along which no call was made: {@code failure} says why. */
    public static CallOutcome unattempted(Route route, Failure failure) {
        return new CallOutcome.FailedBeforeFirstByte(Attempt.unanswered(route, Attempt.Ending.FAILED,
                failure.status().code(), TokenUsage.NONE, 0), failure);
    }

    /** A routing snapshot of {@code providers} becomes current: requests may be forwarded to them. */
    public void retain(Collection<Provider> providers) {
        clients.retain(providers);
    }

    /** A routing snapshot of {@code providers} is released: the clients no current snapshot needs close. */
    public void release(Collection<Provider> providers) {
        clients.release(providers);
    }

    @Override
    public void close() {
        deadlines.close();
        clients.close();
    }
}
