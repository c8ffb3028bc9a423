package io.aigw.runtime.limits;

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

    /** Whether the key has a budget. */
    public boolean applies() {
        return budgetNanos > 0;
    }
}
