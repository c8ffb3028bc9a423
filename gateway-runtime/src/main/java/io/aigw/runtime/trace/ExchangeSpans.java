package io.aigw.runtime.trace;

import io.aigw.runtime.exchange.Exchange;
import io.aigw.runtime.exchange.ExchangeListener;
import io.aigw.runtime.exchange.ExchangeRecord;
import io.aigw.runtime.metering.ResponseFacts;
import io.aigw.runtime.metering.TokenUsage;
import io.aigw.runtime.pricing.Cost;
import io.aigw.runtime.routing.Route;
import io.aigw.runtime.upstream.Attempt;
import io.aigw.runtime.upstream.UpstreamTrace;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapSetter;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Gives a request's server span what its exchange was (endpoint, key, model, outcome, cost) and
 * makes a client span for each attempt, named {@code {gen_ai.operation.name} {gen_ai.request.model}}
 * with the GenAI attributes of what the attempt gave; {@code gateway/auto}'s attempts are siblings
 * under the server span.
 */
final class ExchangeSpans implements ExchangeListener {
    private static final TextMapSetter<Map<String, String>> INTO_MAP = Map::put;

    private final Tracer tracer;
    private final int contentBytes;
    private final boolean propagateUpstream;
    private final Optional<GenAiMetrics> metrics;

    /**
     * @param contentBytes      how much of a request's body the server span records; 0 for none
     * @param propagateUpstream whether each attempt sends its span's trace context on to its provider
     * @param metrics           the GenAI client metrics each attempt is recorded in, when they are exported
     */
    ExchangeSpans(Tracer tracer, int contentBytes, boolean propagateUpstream, Optional<GenAiMetrics> metrics) {
        this.tracer = tracer;
        this.contentBytes = contentBytes;
        this.propagateUpstream = propagateUpstream;
        this.metrics = metrics;
    }

    @Override
    public void exchangeStarted(Exchange exchange) {
        RequestSpans spans = exchange.context().get(RequestSpans.class).orElse(null);
        if (spans == null) {
            return;
        }
        Span span = spans.server;
        String route = exchange.endpoint().path();
        span.updateName("POST " + route);
        span.setAttribute(GenAi.HTTP_ROUTE, route);
        span.setAttribute(GenAi.ENDPOINT, exchange.endpoint().label());
        span.setAttribute(GenAi.OPERATION, GenAi.operation(exchange.endpoint()));
        span.setAttribute(GenAi.REQUEST_MODEL, exchange.model());
        span.setAttribute(GenAi.REQUEST_ID, exchange.requestId());
        span.setAttribute(GenAi.KEY_ID, exchange.caller().keyId());
        if (exchange.caller().keyName() != null) {
            span.setAttribute(GenAi.KEY_NAME, exchange.caller().keyName());
        }
        if (contentBytes > 0 && span.isRecording()) {
            byte[] body = exchange.body();
            int length = Math.min(body.length, contentBytes);
            span.setAttribute(GenAi.REQUEST_BODY, new String(body, 0, length, StandardCharsets.UTF_8));
            if (length < body.length) {
                span.setAttribute(GenAi.REQUEST_BODY_CUT, true);
            }
        }
    }

    @Override
    public void attemptStarted(Exchange exchange, Route route) {
        RequestSpans spans = exchange.context().get(RequestSpans.class).orElse(null);
        if (spans == null) {
            return;
        }
        String operation = GenAi.operation(exchange.endpoint());
        URI url = route.provider().url(exchange.endpoint().api());
        SpanBuilder span = tracer.spanBuilder(operation + " " + route.upstreamModel())
                .setParent(Context.root().with(spans.server))
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute(GenAi.OPERATION, operation)
                .setAttribute(GenAi.PROVIDER, route.provider().prefix())
                .setAttribute(GenAi.REQUEST_MODEL, route.upstreamModel())
                .setAttribute(GenAi.SERVER_ADDRESS, url.getHost())
                .setAttribute(GenAi.SERVER_PORT, port(url));
        if (exchange.stream()) {
            span.setAttribute(GenAi.REQUEST_STREAM, true);
        }
        spans.attemptStartedNanos = System.nanoTime();
        spans.attempt = span.startSpan();
        if (propagateUpstream) {
            Map<String, String> headers = new HashMap<>(4);
            W3CTraceContextPropagator.getInstance().inject(Context.root().with(spans.attempt), headers, INTO_MAP);
            exchange.context().register(new UpstreamTrace(Optional.ofNullable(headers.get("traceparent")),
                    Optional.ofNullable(headers.get("tracestate"))));
        } else if (spans.attempt.isRecording()) {
            // The attempt then reads its answer's model, id and finish reasons; an unsampled one does not.
            exchange.context().register(UpstreamTrace.FACTS_ONLY);
        }
    }

    @Override
    public void attemptEnded(Exchange exchange, Attempt attempt) {
        RequestSpans spans = exchange.context().get(RequestSpans.class).orElse(null);
        if (spans == null || spans.attempt == null) {
            return;
        }
        long ended = System.nanoTime();
        Span span = spans.attempt;
        spans.attempt = null;
        usage(span, attempt.usage());
        response(span, attempt.response());
        double firstChunk = attempt.stream() && attempt.firstByteNanos() > 0
                ? (attempt.firstByteNanos() - spans.attemptStartedNanos) / 1e9 : -1;
        if (firstChunk >= 0) {
            span.setAttribute(GenAi.TIME_TO_FIRST_CHUNK, firstChunk);
        }
        span.setAttribute(GenAi.ATTEMPT_ENDING, attempt.ending().label());
        if (attempt.ending() != Attempt.Ending.FAILED && attempt.ending() != Attempt.Ending.CALLER_LEFT) {
            span.setAttribute(GenAi.HTTP_STATUS, attempt.ending() == Attempt.Ending.CUT ? 200 : attempt.status());
        }
        String errorType = errorType(attempt);
        if (errorType != null) {
            span.setAttribute(GenAi.ERROR_TYPE, errorType);
            span.setStatus(StatusCode.ERROR);
        }
        span.end();
        metrics.ifPresent(genAi -> genAi.attemptEnded(GenAi.operation(exchange.endpoint()), attempt,
                (ended - spans.attemptStartedNanos) / 1e9, firstChunk, errorType));
    }

    /** {@code error.type} of an attempt that failed: the provider's status, or what happened; null for none. */
    private static String errorType(Attempt attempt) {
        return switch (attempt.ending()) {
            case ANSWERED -> null;
            case REFUSED, KEY_REJECTED -> Integer.toString(attempt.status());
            case CUT -> "answer_cut";
            case FAILED -> attempt.status() == 504 ? "timeout" : "upstream_failed";
            case CALLER_LEFT -> "caller_left";
        };
    }

    @Override
    public void exchangeEnded(ExchangeRecord record) {
        RequestSpans spans = record.exchange().context().get(RequestSpans.class).orElse(null);
        if (spans == null) {
            return;
        }
        Span span = spans.server;
        spans.settled = true;
        List<Attempt> attempts = record.attempts();
        String outcome = attempts.isEmpty() ? record.refusedBy().isPresent() ? "limited" : "refused"
                : attempts.get(attempts.size() - 1).ending().label();
        span.setAttribute(GenAi.OUTCOME, outcome);
        span.setAttribute(GenAi.HTTP_STATUS, record.status());
        span.setAttribute(GenAi.FALLBACKS, record.fallbacks());
        if (record.provider() != null) {
            span.setAttribute(GenAi.PROVIDER_USED, record.provider());
        }
        record.refusedBy().ifPresent(limit -> span.setAttribute(GenAi.REFUSED_BY, limit));
        Cost cost = record.charge().cost();
        cost.amount().ifPresent(usd -> span.setAttribute(GenAi.COST_USD, usd.approximateDollars()));
        span.setAttribute(GenAi.COST_BASIS, cost.basis().label());
        if (record.status() >= 500 || record.status() == 0) {
            span.setStatus(StatusCode.ERROR);
        }
    }

    /** What the answer said of itself; what it did not say stays off the span. */
    private static void response(Span span, ResponseFacts response) {
        response.model().ifPresent(model -> span.setAttribute(GenAi.RESPONSE_MODEL, model));
        response.id().ifPresent(id -> span.setAttribute(GenAi.RESPONSE_ID, id));
        if (!response.finishReasons().isEmpty()) {
            span.setAttribute(GenAi.FINISH_REASONS, response.finishReasons());
        }
    }

    /** The counts the upstream reported; a count it did not report stays off the span. */
    private static void usage(Span span, TokenUsage usage) {
        count(span, GenAi.INPUT_TOKENS, usage.promptTokens());
        count(span, GenAi.OUTPUT_TOKENS, usage.completionTokens());
        count(span, GenAi.CACHE_READ_TOKENS, usage.cachedTokens());
        count(span, GenAi.CACHE_CREATION_TOKENS, usage.cacheWriteTokens());
        count(span, GenAi.REASONING_TOKENS, usage.reasoningTokens());
    }

    private static void count(Span span, AttributeKey<Long> key, long count) {
        if (count >= 0) {
            span.setAttribute(key, count);
        }
    }

    private static long port(URI url) {
        return url.getPort() > 0 ? url.getPort() : "https".equals(url.getScheme()) ? 443 : 80;
    }
}
