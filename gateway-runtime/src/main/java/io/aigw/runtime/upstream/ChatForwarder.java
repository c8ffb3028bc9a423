package io.aigw.runtime.upstream;

import io.aigw.runtime.config.UpstreamTimeouts;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.observe.CallReport;
import io.aigw.runtime.observe.GatewayMetrics;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.routing.AutoChain;
import io.aigw.runtime.routing.Destination;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.transport.TransportOptions.Choice;
import io.aigw.runtime.upstream.CallOutcome.Answered;
import io.aigw.runtime.upstream.CallOutcome.CallerLeft;
import io.aigw.runtime.upstream.CallOutcome.FailedAfterFirstByte;
import io.aigw.runtime.upstream.CallOutcome.FailedBeforeFirstByte;
import io.aigw.runtime.upstream.UpstreamCall.CallerSide;
import io.helidon.common.tls.Tls;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.CloseConnectionException;
import io.helidon.webserver.http.ServerResponse;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;

/**
 * The upstream layer's entry: sends a chat completion to where routing said, one
 * {@link UpstreamCall} per provider tried, and answers the caller. Along one route a failure goes
 * back as it is; along {@code gateway/auto}'s chain the {@link FallbackChain} decides.
 */
public final class ChatForwarder implements AutoCloseable {
    /** Names the provider that served the answer. */
    public static final HeaderName PROVIDER_HEADER = HeaderNames.create("X-Gateway-Provider");
    /** States a plain answer's cost in US dollars, when {@code gateway.cost-header} is on. */
    public static final HeaderName COST_HEADER = HeaderNames.create("X-Gateway-Cost");

    /** Built on first use: each loads a TLS trust store, which providers never called need not pay for. */
    private final UpstreamClients clients;
    private final KeyCooldowns cooldowns;
    private final Deadlines deadlines;
    private final long totalNanos;
    private final UpstreamCall call;
    private final FallbackChain fallback;
    private volatile boolean stopping;

    /** Forwards to the providers of the routing snapshots {@link #retain retained}. */
    public ChatForwarder(UpstreamTimeouts timeouts, Duration keyCooldown, Optional<Tls> tls, Choice upstreamPool,
                         GatewayMetrics metrics) {
        this.deadlines = new Deadlines(Deadlines.tickFor(timeouts));
        this.totalNanos = timeouts.total().toNanos();
        this.cooldowns = new KeyCooldowns(keyCooldown);
        this.clients = new UpstreamClients(provider -> new UpstreamClient(provider, timeouts, tls, upstreamPool));
        this.call = new UpstreamCall(clients::clientFor, timeouts, deadlines, cooldowns, metrics, () -> stopping);
        this.fallback = new FallbackChain(metrics);
    }

    /**
     * The gateway begins to stop: a call whose wait on its upstream fails from now on was ended by
     * the stop at the end of its grace period, and is answered 503 {@code shutting_down}.
     */
    public void stopping() {
        stopping = true;
    }

    /**
     * Forwards a request to its destination and answers the caller, unless the request fails as a
     * whole before any provider is called. The call ends early when {@code hangup} hears that the
     * caller left, and at {@code gateway.timeouts.total} from the request's arrival.
     *
     * @param costHeader the prices to state a plain answer's cost by in {@link #COST_HEADER}; empty
     *                   when that header is off
     * @throws ApiException 400 when the one provider has no key, 502 when {@code gateway/auto} has no usable one
     * @throws CloseConnectionException when a plain answer was cut short or the caller left: the
     *                                  caller's connection must close, since the answer cannot end well
     */
    public void forward(UpstreamRequest request, Destination destination, ServerResponse response,
                        CallReport report, Hangup hangup, Optional<PriceBook> costHeader) {
        CallerSide caller = new CallerSide(response, report, hangup, report.startedNanos() + totalNanos,
                costHeader);
        CallOutcome outcome = switch (destination) {
            case Route route -> call.attempt(request, requireKey(route, report.requestedModel()), caller);
            case AutoChain chain -> fallback.tryInOrder(chain.routes(this::usable),
                    route -> call.attempt(request, route, caller));
        };
        switch (outcome) {
            case Answered answered -> {
            }
            case FailedBeforeFirstByte(Failure failure) -> failure.send(response, report);
            case FailedAfterFirstByte(int status, String message, boolean answerEnds) -> {
                report.cutShort(status);
                if (!answerEnds) {
                    throw new CloseConnectionException(message);
                }
            }
            case CallerLeft left -> {
                report.cutShort(CallerLeft.STATUS);
                throw new CloseConnectionException("The caller left before its answer was whole");
            }
        }
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

    /** Whether {@code gateway/auto} may try this provider now: it has a key not recently rejected. */
    private boolean usable(Provider provider) {
        return provider.apiKey().isPresent() && !cooldowns.isCoolingDown(provider.name());
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
