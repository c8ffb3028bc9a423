package io.aigw.runtime.observe;

import io.aigw.runtime.exchange.Exchange;
import io.aigw.runtime.exchange.ExchangeListener;
import io.aigw.runtime.exchange.ExchangeRecord;
import io.aigw.runtime.metering.TokenUsage;
import io.aigw.runtime.upstream.Attempt;
import java.util.List;

/** Counts what happens to exchanges in the {@link GatewayMetrics}. */
public final class ExchangeMetrics implements ExchangeListener {
    private final GatewayMetrics metrics;

    public ExchangeMetrics(GatewayMetrics metrics) {
        this.metrics = metrics;
    }

    @Override
    public void exchangeStarted(Exchange exchange) {
        metrics.requestStarted();
        if (exchange.stream()) {
            metrics.streamStarted();
        }
    }

    @Override
    public void attemptEnded(Exchange exchange, Attempt attempt) {
        if (attempt.upstreamKey() != null) {
            metrics.upstreamKeyAttempt(attempt.provider(), attempt.upstreamKey(),
                    attempt.ending().label());
        }
        if (attempt.ending() == Attempt.Ending.KEY_REJECTED) {
            metrics.keyCooldown(attempt.provider());
        }
    }

    @Override
    public void passedOver(Exchange exchange, Attempt attempt) {
        metrics.fallback(attempt.provider());
    }

    @Override
    public void exchangeEnded(ExchangeRecord record) {
        Exchange exchange = record.exchange();
        metrics.requestEnded();
        if (exchange.stream()) {
            metrics.streamEnded();
        }
        if (record.refusedBy().isPresent()) {
            metrics.rateLimited(record.refusedBy().get());
        }
        List<Attempt> attempts = record.attempts();
        long now = System.nanoTime();
        long upstreamNanos = record.upstreamNanos();
        long waitedFor = record.stream() ? record.firstByteNanos() : now;
        TokenUsage tokens = attempts.isEmpty() ? TokenUsage.NONE : attempts.get(attempts.size() - 1).usage();
        String endpoint = exchange.endpoint().label();
        metrics.completed(endpoint, exchange.model(), record.provider(), record.status(),
                Math.max(0, waitedFor - exchange.startedNanos() - upstreamNanos), upstreamNanos,
                tokens.promptTokens(), tokens.completionTokens(), record.charge().cost().amount().orElse(null));
        if (record.stream()) {
            metrics.streamFirstByte(record.provider(), record.firstByteNanos() - exchange.startedNanos());
        }
        for (ExchangeRecord.Billed billed : record.billed()) {
            if (billed.charge().cost().amount().isPresent()) {
                metrics.cost(endpoint, billed.attempt().provider(), exchange.model(), record.status(),
                        billed.charge().cost().amount().get());
            }
        }
    }
}
