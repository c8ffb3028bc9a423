package io.aigw.runtime.limits;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Counts in this process's memory: exact for one gateway, and the default. Each key's window and
 * spend are guarded by its own lock, held for a few arithmetic steps; keys never wait on one another.
 * A key's spend in its budget's period is read from the {@link SpendLedger} the first time it is
 * needed (after a start, at a period's start), outside the lock, and counted here from then on.
 */
public final class LocalLimiter implements RateLimiter {
    private final Map<String, Window> windows = new ConcurrentHashMap<>();
    private final LongSupplier clockMillis;
    private final SpendLedger ledger;

    /**
     * @param clockMillis the time in milliseconds, from any fixed origin
     * @param ledger      where a key's spend so far is read when this limiter has no count of it
     */
    public LocalLimiter(LongSupplier clockMillis, SpendLedger ledger) {
        this.clockMillis = clockMillis;
        this.ledger = ledger;
    }

    /** Counts by {@link System#nanoTime()}, which no change of the wall clock moves. */
    public LocalLimiter(SpendLedger ledger) {
        this(() -> System.nanoTime() / 1_000_000, ledger);
    }

    /** For keys without budgets. */
    public LocalLimiter() {
        this(SpendLedger.NONE);
    }

    @Override
    public Decision reserve(String keyId, Limits limits, long tokens, BudgetClaim budget) {
        Window window = windows.computeIfAbsent(keyId, id -> new Window());
        while (true) {
            Decision decision = window.reserve(limits, tokens, clockMillis.getAsLong(), budget);
            if (decision != null) {
                return decision;
            }
            // A database query: never under the window's lock. Two requests may both read it; the first seeds.
            window.seed(budget.period(), ledger.spentNanos(keyId, budget.periodStartMillis()));
        }
    }

    @Override
    public void close() {
        windows.clear();
    }

    /** One key's current window and spend; its fields change only under its lock. */
    private static final class Window {
        private long start = Long.MIN_VALUE;
        private long requests;
        private long tokens;
        /** The budget period {@link #spent} counts; null before it was read from the ledger. */
        private String period;
        private long spent;

        synchronized void seed(String forPeriod, long spentSoFar) {
            if (!forPeriod.equals(period)) {
                period = forPeriod;
                spent = spentSoFar;
            }
        }

        /** The decision; null when the budget's spend so far must be read first. */
        synchronized Decision reserve(Limits limits, long wanted, long now, BudgetClaim budget) {
            if (budget.applies() && !budget.period().equals(period)) {
                return null;
            }
            if (start == Long.MIN_VALUE || now - start >= Limits.WINDOW_MILLIS) {
                start = now;
                requests = 0;
                tokens = 0;
            }
            long reset = start + Limits.WINDOW_MILLIS - now;
            long spentNow = budget.applies() ? spent : 0;
            if (limits.rpm() > 0 && requests + 1 > limits.rpm()) {
                return new Decision.Refused(new Quota(limits, requests, tokens, reset, spentNow), "requests");
            }
            if (limits.tpm() > 0 && tokens + wanted > limits.tpm()) {
                return new Decision.Refused(new Quota(limits, requests, tokens, reset, spentNow), "tokens");
            }
            if (budget.applies() && spent + budget.costNanos() > budget.budgetNanos()) {
                return new Decision.Refused(new Quota(limits, requests, tokens, reset, spentNow), "budget");
            }
            requests++;
            tokens += wanted;
            long cost = budget.applies() ? budget.costNanos() : 0;
            spent += cost;
            return new Decision.Admitted(new Held(this, start, wanted, budget.applies() ? period : null, cost),
                    Optional.of(new Quota(limits, requests, tokens, reset, budget.applies() ? spent : 0)));
        }

        synchronized void adjust(long windowStart, long requestDelta, long tokenDelta, String inPeriod,
                                 long costDelta) {
            if (start == windowStart) {
                requests += requestDelta;
                tokens = Math.max(0, tokens + tokenDelta);
            }
            if (costDelta != 0 && inPeriod != null && inPeriod.equals(period)) {
                spent = Math.max(0, spent + costDelta);
            }
        }
    }

    private record Held(Window window, long windowStart, long tokens, String period, long cost)
            implements Reservation {
        @Override
        public void settle(long used, long costNanos) {
            window.adjust(windowStart, 0, used - tokens, period, costNanos < 0 ? 0 : costNanos - cost);
        }

        @Override
        public void release() {
            window.adjust(windowStart, -1, -tokens, period, -cost);
        }
    }
}
