package io.aigw.runtime.observe;

import io.aigw.runtime.auth.Caller;
import io.aigw.runtime.upstream.CallReport;
import io.aigw.runtime.upstream.TokenUsage;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.webserver.http.Filter;
import io.helidon.webserver.http.FilterChain;
import io.helidon.webserver.http.RoutingRequest;
import io.helidon.webserver.http.RoutingResponse;
import io.aigw.runtime.error.Jsons;
import jakarta.json.JsonObjectBuilder;
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
 * sane, else a new one), returns it, and writes the request's access log line when it is done.
 */
public final class RequestObserver implements Filter {
    public static final HeaderName REQUEST_ID = HeaderNames.create("X-Request-Id");
    private static final int MAX_ID_LENGTH = 128;

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
        request.context().register(new RequestId(requestId));
        response.header(REQUEST_ID, requestId);
        try {
            chain.proceed();
        } finally {
            try {
                accessLog.ifPresent(log -> log.log(line(request, response, requestId, started)));
            } finally {
                inFlight.arriveAndDeregister();
            }
        }
    }

    private static String line(RoutingRequest request, RoutingResponse response, String requestId, long started) {
        JsonObjectBuilder line = Jsons.PROVIDER.createObjectBuilder()
                .add("time", Instant.now().toString())
                .add("request_id", requestId)
                .add("method", request.prologue().method().text())
                .add("path", request.prologue().uriPath().path())
                .add("status", response.status().code())
                .add("latency_ms", Math.round((System.nanoTime() - started) / 10_000.0) / 100.0);
        request.context().get(Caller.class).ifPresent(caller -> line.add("key_id", caller.keyId()));
        request.context().get(CallReport.class).ifPresent(report -> {
            line.add("model", report.requestedModel());
            if (report.provider() != null) {
                line.add("provider", report.provider()).add("upstream_model", report.upstreamModel());
            }
            line.add("stream", report.isStream()).add("fallbacks", report.fallbacks());
            if (report.firstByteNanos() > 0) {
                line.add("first_byte_ms", Math.round((report.firstByteNanos() - started) / 10_000.0) / 100.0);
            }
            TokenUsage usage = report.usage();
            if (usage.totalTokens() >= 0) {
                line.add("prompt_tokens", usage.promptTokens())
                        .add("completion_tokens", usage.completionTokens())
                        .add("total_tokens", usage.totalTokens());
            }
        });
        return line.build().toString();
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
        ThreadLocalRandom random = ThreadLocalRandom.current();
        return "req_" + HexFormat.of().toHexDigits(random.nextLong()) + HexFormat.of().toHexDigits(random.nextInt());
    }

    /** The id of the request being handled, in its context. */
    public record RequestId(String value) {
    }
}
