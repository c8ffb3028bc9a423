package io.aigw.runtime.observe;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.error.ErrorShape;
import io.aigw.runtime.exchange.Endpoint;
import io.aigw.runtime.exchange.ExchangeRecord;
import io.aigw.runtime.metering.Charge;
import io.aigw.runtime.metering.TokenUsage;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.concurrent.Phaser;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The outermost filter: gives every request an id (the caller's {@code X-Request-Id} when it is
 * sane, else a new one), returns it (on the Anthropic surface also as {@code request-id}, where
 * Anthropic's SDKs read it), and writes the request's access log line when it is done, from what
 * its {@link ObservedRequest} kept of the request's exchange.
 */
public final class RequestObserver implements Filter {
    public static final HeaderName REQUEST_ID = HeaderNames.create("X-Request-Id");
    private static final HeaderName ANTHROPIC_REQUEST_ID = HeaderNames.create("request-id");
    private static final int MAX_ID_LENGTH = 128;
    private static final int ID_RANDOM_BYTES = 12;
    private static final HexFormat HEX = HexFormat.of();

    private final Optional<AccessLog> accessLog;
    private final Phaser inFlight = new Phaser(1);

    public RequestObserver(Optional<AccessLog> accessLog) {
        this.accessLog = accessLog;
    }

    /**
     * Waits until every request that entered has left this filter, its usage and log line handed
     * over: the server may call a request finished as soon as its answer is out, a moment before.
     */
    public void awaitIdle(Duration timeout) {
        int phase = inFlight.arrive();
        try {
            inFlight.awaitAdvanceInterruptibly(phase, timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException e) {
            // The grace period is over; what is still running is cut short.
        }
    }

    @Override
    public void filter(FilterChain chain, RoutingRequest request, RoutingResponse response) {
        long started = System.nanoTime();
        inFlight.register();
        String requestId = request.headers().first(REQUEST_ID).filter(RequestObserver::isSane)
                .orElseGet(RequestObserver::newId);
        ObservedRequest observed = new ObservedRequest(requestId);
        request.context().register(observed);
        response.header(REQUEST_ID, requestId);
        if (ErrorShape.forPath(request.prologue().uriPath().path()) == ErrorShape.ANTHROPIC) {
            // Set first, so that an Anthropic upstream's own request-id, relayed, replaces it.
            response.header(ANTHROPIC_REQUEST_ID, requestId);
        }
        try {
            chain.proceed();
        } finally {
            try {
                accessLog.ifPresent(log -> log.log(entry(request, response, observed, started)));
            } finally {
                inFlight.arriveAndDeregister();
            }
        }
    }

    private static AccessLog.Entry entry(RoutingRequest request, RoutingResponse response, ObservedRequest observed,
                                         long started) {
        long now = System.nanoTime();
        Optional<ExchangeRecord> exchange = observed.exchange();
        String requestId = observed.id();
        String traceId = observed.traceId();
        if (exchange.isEmpty()) {
            // A request refused before its exchange: its key and endpoint when it got as far as them.
            String keyId = request.context().get(Caller.class).map(Caller::keyId).orElse(null);
            String endpoint = request.context().get(Endpoint.class).map(Endpoint::label).orElse(null);
            return new AccessLog.Entry(Instant.now(), requestId, request.prologue().method().text(),
                    request.prologue().uriPath().path(), endpoint, response.status().code(), (now - started) / 1000,
                    keyId, null, null, null, null, 0, -1, -1, -1, -1, null, traceId, null);
        }
        ExchangeRecord record = exchange.get();
        Charge charge = record.charge();
        // The tokens the cost comes from: reported, or estimated where the cost is.
        TokenUsage usage = charge.tokens();
        // The record's status, when it has one, also says how an answer that began with 200 was cut short.
        int status = record.status() > 0 ? record.status() : response.status().code();
        return new AccessLog.Entry(Instant.now(), requestId, request.prologue().method().text(),
                request.prologue().uriPath().path(), record.exchange().endpoint().label(), status,
                (now - started) / 1000, record.exchange().caller().keyId(),
                record.exchange().model(), record.provider(), record.upstreamModel(), record.stream(),
                record.fallbacks(), record.firstByteNanos() > 0 ? (record.firstByteNanos() - started) / 1000 : -1,
                usage.promptTokens(), usage.completionTokens(), usage.totalTokens(), charge.cost(), traceId,
                record.upstreamKey());
    }

    /** An id from a caller is kept only when it is short and plain, so it is safe in logs and headers. */
    private static boolean isSane(String id) {
        if (id.isEmpty() || id.length() > MAX_ID_LENGTH) {
            return false;
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (!(Character.isLetterOrDigit(c) && c < 128) && "-_.:".indexOf(c) < 0) {
                return false;
            }
        }
        return true;
    }

    /** Unique enough to trace a request, not a secret: no SecureRandom on the request path. */
    private static String newId() {
        byte[] random = new byte[ID_RANDOM_BYTES];
        ThreadLocalRandom.current().nextBytes(random);
        // Into one builder, where two hex strings and their concatenation took 0.36 us (issue 50's profile).
        return HEX.formatHex(new StringBuilder(4 + 2 * ID_RANDOM_BYTES).append("req_"), random).toString();
    }
}
