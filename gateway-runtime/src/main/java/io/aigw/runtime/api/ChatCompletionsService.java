package io.aigw.runtime.api;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.batch.BatchWriter;
import io.aigw.runtime.config.GatewayConfig;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.limits.RateLimiter;
import io.aigw.runtime.observe.CallReport;
import io.aigw.runtime.observe.Charge;
import io.aigw.runtime.observe.GatewayMetrics;
import io.aigw.runtime.observe.RequestObserver;
import io.aigw.runtime.metering.TextEstimate;
import io.aigw.runtime.metering.TokenUsage;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.routing.CurrentRoutes;
import io.aigw.runtime.routing.Destination;
import io.aigw.runtime.routing.RoutingSnapshot;
import io.aigw.runtime.store.KeyPolicy;
import io.aigw.runtime.store.UsageRecord;
import io.aigw.runtime.transport.CallerWatch;
import io.aigw.runtime.upstream.ChatForwarder;
import io.aigw.runtime.upstream.Hangup;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * {@code POST /api/v1/chat/completions}: reads and validates the body, checks it against its key's
 * policies (allowed models, then a rate-limit reservation), asks routing where its model goes and
 * hands it to the upstream layer, then settles the reservation and counts what happened.
 */
public final class ChatCompletionsService implements HttpService {
    private final CurrentRoutes routing;
    private final ChatForwarder forwarder;
    private final BatchWriter<UsageRecord> usage;
    private final GatewayMetrics metrics;
    private final RateLimitGate limits;
    private final boolean costHeader;
    /** Each request in flight holds buffers and a thread stack: past the limit the heap would run out. */
    private final InFlightAdmission inFlight;
    /** The heap request bodies in flight hold together: past it the heap would run out. */
    private final BodyAdmission bodies;

    /**
     * @param limits     the largest body, the requests and bodies in flight, and each key's share of them
     * @param costHeader whether a plain answer states its cost in {@link ChatForwarder#COST_HEADER}
     */
    public ChatCompletionsService(CurrentRoutes routing, ChatForwarder forwarder, BatchWriter<UsageRecord> usage,
                                  GatewayMetrics metrics, RateLimiter limiter, GatewayConfig.Limits limits,
                                  boolean costHeader) {
        this.routing = routing;
        this.forwarder = forwarder;
        this.usage = usage;
        this.metrics = metrics;
        this.limits = new RateLimitGate(limiter, metrics);
        this.costHeader = costHeader;
        this.inFlight = new InFlightAdmission(limits.maxConcurrentRequests(), limits.inFlightReserve());
        this.bodies = new BodyAdmission(limits.maxBodyBytes(), limits.bodyMemory(), limits.keyBodyMemory());
    }

    @Override
    public void routing(HttpRules rules) {
        rules.post("/", this::createWithinLimit);
    }

    /** A slot once the key is known, before the body is read; then room for the body as it arrives. */
    private void createWithinLimit(ServerRequest request, ServerResponse response) {
        long started = System.nanoTime();
        try (RequestSlots.Admission.Taken slot = inFlight.admit(request, response);
             BodyAdmission.Body body = bodies.read(request, response)) {
            create(request, response, body.bytes(), started);
        }
    }

    private void create(ServerRequest request, ServerResponse response, byte[] body, long started) {
        ChatRequest chat = ChatRequest.parse(body);
        // The key filter registers the caller of every /api/ request; usage records say "unknown" without one.
        Caller caller = request.context().get(Caller.class)
                .orElseGet(() -> new Caller("unknown", false, KeyPolicy.NONE));
        byte[] prompt = body;
        CallReport report = new CallReport(request.context().get(RequestObserver.RequestId.class)
                .map(RequestObserver.RequestId::value).orElse("none"), chat.model(), started);
        request.context().register(report);
        metrics.requestStarted();
        int status = 0;
        // Held to the end, a stream's included: the request finishes on the providers it started with.
        RoutingSnapshot routes = routing.acquire();
        RateLimitGate.Held held = RateLimitGate.Held.NOTHING;
        PriceBook prices = routes.prices();
        try {
            // Refused past the report, as every policy is: logged, counted and recorded with its model.
            if (!caller.policy().allows(chat.model())) {
                throw new ApiException(ApiError.modelNotAllowed(chat.model()));
            }
            Destination destination = routes.table().destination(chat.model());
            held = limits.admit(caller, chat, body.length, destination, prices, response);
            forwardWatched(chat, destination, response, report, costHeader ? Optional.of(prices) : Optional.empty());
            status = report.status();
        } catch (ApiException e) {
            status = e.error().status().code();
            throw e;
        } finally {
            // An answer cut short ends the connection with an exception; the report says how it was cut.
            status = status == 0 ? report.status() : status;
            routes.release();
            metrics.requestEnded();
            Charge charge = Charge.of(report, prices, () -> TextEstimate.textBytes(prompt, 0, prompt.length));
            report.charged(charge);
            count(report, status, charge);
            String keyId = caller.keyId();
            List<Charge> attempts = report.billedAttempts().stream()
                    .map(attempt -> Charge.of(attempt, prices)).toList();
            Optional<Usd> spent = charge.cost().amount();
            for (Charge billed : attempts) {
                spent = spent.flatMap(sum -> billed.cost().amount().map(sum::plus));
            }
            // Settled before its usage records are offered: a spend rebuilt from the records meanwhile
            // never counts a request twice (see RedisScripts#ADJUST).
            limits.settle(held, report, spent);
            for (int i = 0; i < attempts.size(); i++) {
                CallReport.BilledAttempt attempt = report.billedAttempts().get(i);
                Charge billed = attempts.get(i);
                billed.cost().amount().ifPresent(usd -> metrics.cost(attempt.provider(), chat.model(), usd));
                usage.offer(new UsageRecord(Instant.now(), keyId, chat.model(), attempt.provider(),
                        attempt.upstreamModel(), attempt.status(), billed.tokens().promptTokens(),
                        billed.tokens().completionTokens(), billed.tokens().totalTokens(), 0, -1,
                        attempt.fallbacks(), billed.cost(), prices, true));
            }
            usage.offer(record(keyId, chat, report, status, started, charge, prices));
        }
    }

    /** Forwards with the caller watched once the call takes a while: one that leaves ends it, not its timeout. */
    private void forwardWatched(ChatRequest chat, Destination destination, ServerResponse response,
                                CallReport report, Optional<PriceBook> costHeader) {
        try (CallerWatch watch = CallerWatch.forThisRequest()) {
            forwarder.forward(chat, destination, response, report, new Hangup(watch::start), costHeader);
        }
    }

    private void count(CallReport report, int status, Charge charge) {
        long now = System.nanoTime();
        long waitedFor = report.isStream() ? report.firstByteNanos() : now;
        TokenUsage tokens = report.usage();
        metrics.completed(report.requestedModel(), report.provider(), status,
                Math.max(0, waitedFor - report.startedNanos() - report.upstreamNanos()), report.upstreamNanos(),
                tokens.promptTokens(), tokens.completionTokens());
        charge.cost().amount().ifPresent(usd -> metrics.cost(report.provider(), report.requestedModel(), usd));
        if (report.isStream()) {
            metrics.streamFirstByte(report.provider(), report.firstByteNanos() - report.startedNanos());
        }
    }

    private static UsageRecord record(String keyId, ChatRequest chat, CallReport report, int status, long started,
                                      Charge charge, PriceBook prices) {
        long now = System.nanoTime();
        TokenUsage tokens = charge.tokens();
        return new UsageRecord(Instant.now(), keyId, chat.model(), report.provider(), report.upstreamModel(), status,
                tokens.promptTokens(), tokens.completionTokens(), tokens.totalTokens(),
                (now - started) / 1000,
                report.firstByteNanos() < 0 ? -1 : (report.firstByteNanos() - started) / 1000,
                report.fallbacks(), charge.cost(), prices, false);
    }
}
