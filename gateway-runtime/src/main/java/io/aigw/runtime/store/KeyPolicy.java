package io.aigw.runtime.store;

import io.aigw.runtime.pricing.Usd;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a workspace key may do, stored with it. Every part is optional: a key without any is
 * limited by nothing but the gateway's own limits.
 *
 * @param models    allowed model ids, each exact or with {@code *} standing for any run of
 *                  characters ({@code openai/*}); empty: every model
 * @param expiresAt when the key stops working
 * @param rpm       requests a minute
 * @param tpm       tokens (prompt and completion) a minute
 * @param budget    US dollars the key may spend in each {@code period}
 * @param period    what {@code budget} is spent over; {@link BudgetPeriod#LIFETIME} when it has none
 */
public record KeyPolicy(List<String> models, Optional<Instant> expiresAt, OptionalLong rpm, OptionalLong tpm,
                        Optional<Usd> budget, BudgetPeriod period) {
    /** No policy at all. */
    public static final KeyPolicy NONE = new KeyPolicy(List.of(), Optional.empty(), OptionalLong.empty(),
            OptionalLong.empty(), Optional.empty(), BudgetPeriod.LIFETIME);

    public KeyPolicy {
        models = List.copyOf(models);
    }

    /** These policies without a budget. */
    public KeyPolicy(List<String> models, Optional<Instant> expiresAt, OptionalLong rpm, OptionalLong tpm) {
        this(models, expiresAt, rpm, tpm, Optional.empty(), BudgetPeriod.LIFETIME);
    }

    /** Whether {@code model}, as the caller wrote it, is one this key may ask for. */
    public boolean allows(String model) {
        if (models.isEmpty()) {
            return true;
        }
        for (String pattern : models) {
            if (ModelGlob.matches(pattern, model)) {
                return true;
            }
        }
        return false;
    }

    /** Whether the key has expired at {@code now}. */
    public boolean expiredAt(Instant now) {
        return expiresAt.isPresent() && !now.isBefore(expiresAt.get());
    }

    /** Whether requests of this key are counted: it has a request or a token limit. */
    public boolean limitsRate() {
        return rpm.isPresent() || tpm.isPresent();
    }

    /** Whether requests of this key reserve before they are forwarded: it has a limit or a budget. */
    public boolean reserves() {
        return limitsRate() || budget.isPresent();
    }
}
