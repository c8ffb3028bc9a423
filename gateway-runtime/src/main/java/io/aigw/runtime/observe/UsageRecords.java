package io.aigw.runtime.observe;

import io.aigw.runtime.batch.BatchWriter;
import io.aigw.runtime.exchange.Exchange;
import io.aigw.runtime.exchange.ExchangeListener;
import io.aigw.runtime.exchange.ExchangeRecord;
import io.aigw.runtime.metering.TokenUsage;
import io.aigw.runtime.store.UsageRecord;
import io.aigw.runtime.upstream.Attempt;
import java.time.Instant;

/**
 * Hands each ended exchange's usage records to the writer that stores them off the request's
 * thread: one for the exchange, and one before it for each failed attempt its upstream billed.
 */
public final class UsageRecords implements ExchangeListener {
    private final BatchWriter<UsageRecord> usage;
    private final boolean traced;

    /**
     * @param traced whether tracing is on: off, no request has a trace id, and looking for one in the
     *               request's context (under its lock, each request) would only find none
     */
    public UsageRecords(BatchWriter<UsageRecord> usage, boolean traced) {
        this.usage = usage;
        this.traced = traced;
    }

    @Override
    public void exchangeEnded(ExchangeRecord record) {
        Exchange exchange = record.exchange();
        String keyId = exchange.caller().keyId();
        String traceId = traced
                ? exchange.context().get(ObservedRequest.class).map(ObservedRequest::traceId).orElse(null) : null;
        for (ExchangeRecord.Billed billed : record.billed()) {
            Attempt attempt = billed.attempt();
            TokenUsage tokens = billed.charge().tokens();
            usage.offer(new UsageRecord(Instant.now(), keyId, exchange.model(), attempt.provider(),
                    attempt.upstreamModel(), attempt.status(), tokens.promptTokens(), tokens.completionTokens(),
                    tokens.totalTokens(), 0, -1, billed.fallbacks(), billed.charge().cost(), record.prices(), true,
                    traceId, attempt.upstreamKey(),
                    exchange.endpoint().label()));
        }
        long now = System.nanoTime();
        long started = exchange.startedNanos();
        TokenUsage tokens = record.charge().tokens();
        usage.offer(new UsageRecord(Instant.now(), keyId, exchange.model(), record.provider(), record.upstreamModel(),
                record.status(), tokens.promptTokens(), tokens.completionTokens(), tokens.totalTokens(),
                (now - started) / 1000, record.firstByteNanos() < 0 ? -1 : (record.firstByteNanos() - started) / 1000,
                record.fallbacks(), record.charge().cost(), record.prices(), false, traceId, record.upstreamKey(),
                exchange.endpoint().label()));
    }
}
