package io.aigw.runtime.exchange;

import io.aigw.runtime.metering.Charge;
import io.aigw.runtime.metering.TextEstimate;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.upstream.Attempt;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The end of an exchange: what it is charged, from its attempts and the prices it was routed with,
 * and its reservation settled to that, before anyone hears of it: a spend rebuilt from the usage
 * records meanwhile never counts a request twice (see {@code RedisScripts#ADJUST}).
 */
final class Settlement {

    private Settlement() {
    }

    /**
     * Charges the exchange, settles {@code held} and returns the exchange's record.
     *
     * @param status         the status it is counted with ({@link ExchangeRecord#status()})
     * @param firstByteNanos when its answer's first byte went to the caller, or -1
     */
    static ExchangeRecord settle(Exchange exchange, List<Attempt> tried, int status, long firstByteNanos,
                                 RateLimitGate limits, RateLimitGate.Held held, PriceBook prices,
                                 Optional<String> refusedBy) {
        if (tried.isEmpty()) {
            held.reservation().release();
            return new ExchangeRecord(exchange, tried, status, firstByteNanos, Charge.nothing(), List.of(), prices,
                    refusedBy);
        }
        Attempt last = tried.get(tried.size() - 1);
        byte[] prompt = exchange.body();
        // A token count is free, whatever its answer says.
        Charge charge = !exchange.endpoint().billed() ? Charge.nothing()
                : Charge.of(last, prices, () -> TextEstimate.textBytes(prompt, 0, prompt.length));
        List<ExchangeRecord.Billed> billed = billed(tried, prices);
        Optional<Usd> spent = charge.cost().amount();
        for (ExchangeRecord.Billed attempt : billed) {
            spent = spent.flatMap(sum -> attempt.charge().cost().amount().map(sum::plus));
        }
        limits.settle(held, exchange.model(), last, spent);
        return new ExchangeRecord(exchange, tried, status, firstByteNanos, charge, billed, prices, refusedBy);
    }

    /** The attempts before the last that their upstreams billed, though they failed: they reported usage. */
    private static List<ExchangeRecord.Billed> billed(List<Attempt> tried, PriceBook prices) {
        List<ExchangeRecord.Billed> billed = List.of();
        for (int i = 0; i < tried.size() - 1; i++) {
            Attempt attempt = tried.get(i);
            if (attempt.billed()) {
                if (billed.isEmpty()) {
                    billed = new ArrayList<>(2);
                }
                billed.add(new ExchangeRecord.Billed(attempt, i, Charge.billed(attempt, prices)));
            }
        }
        return billed;
    }
}
