package io.aigw.runtime.limits;

import io.aigw.runtime.store.BudgetPeriod;
import java.time.Instant;

/**
 * A key's USD budget in its current period, and the cost one request reserves against it.
 *
 * @param budgetNanos     the budget, in nano-dollars; 0 for a key without one
 * @param period          names the period ({@code day:<start ms>}, {@code month:<start ms>},
 *                        {@code life}): a new name starts a new count, rebuilt from the usage records
 * @param periodStartMillis when the period started (unix ms), what the spend so far is summed from
 * @param periodEndMillis when it ends (unix ms), 0 for a lifetime
 * @param costNanos       the request's estimated cost, in nano-dollars
 */
public record BudgetClaim(long budgetNanos, String period, long periodStartMillis, long periodEndMillis,
                          long costNanos) {
    /** No budget: nothing is reserved against one. */
    public static final BudgetClaim NONE = new BudgetClaim(0, "", 0, 0, 0);

    /**
     * A claim of {@code costNanos} against a budget of {@code budgetNanos} spent over {@code period},
     * in the period holding {@code now}: the reservation and its settlement count in that period,
     * even when the request ends in the next.
     */
    public static BudgetClaim in(BudgetPeriod period, Instant now, long budgetNanos, long costNanos) {
        return new BudgetClaim(budgetNanos, period.countName(now), period.start(now).toEpochMilli(),
                period.end(now).map(Instant::toEpochMilli).orElse(0L), costNanos);
    }

    /** Whether the key has a budget. */
    public boolean applies() {
        return budgetNanos > 0;
    }
}
