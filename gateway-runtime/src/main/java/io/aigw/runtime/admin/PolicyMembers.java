package io.aigw.runtime.admin;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.pricing.Usd;
import io.aigw.runtime.store.BudgetPeriod;
import io.aigw.runtime.store.KeyPolicy;
import io.aigw.runtime.text.Identifiers;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The policy members of an admin body ({@code models}, {@code expires_at}, {@code rpm},
 * {@code tpm}, {@code budget_usd}, {@code budget_period}), shared by {@code POST} and {@code PATCH}:
 * a member sent sets that part, one sent as {@code null} clears it, one left out keeps what the key
 * had. A budget cleared takes its period with it.
 */
public final class PolicyMembers {
    /** The longest model pattern: the longest model id a request may name ({@code ChatRequestReader}). */
    static final int MAX_PATTERN = 300;
    /**
     * The most patterns a key may list. Each request of the key is matched against all of them, in
     * time linear in a pattern's and the model id's lengths ({@code ModelGlob}): this keeps a
     * request's matching within a few hundred thousand steps.
     */
    static final int MAX_PATTERNS = 200;
    /** Past any real limit, and far from overflowing a counter. */
    static final long MAX_LIMIT = 1_000_000_000_000L;

    /** Far past any key's budget, and far inside what Redis's scripts count exactly (2^53 nano-dollars). */
    static final BigDecimal MAX_BUDGET = BigDecimal.valueOf(1_000_000);

    static final String MODELS_RULE = "'models' must be a non-empty array of at most " + MAX_PATTERNS + " model ids or"
            + " patterns ('openai/*'), each at most " + MAX_PATTERN + " characters without control or bidirectional"
            + " formatting characters; null allows every model.";
    static final String EXPIRES_RULE = "'expires_at' must be a time in unix seconds, or null for a key that"
            + " does not expire.";
    static final String RPM_RULE = "'rpm' must be a whole number of requests a minute from 1 to " + MAX_LIMIT
            + ", or null for no limit.";
    static final String TPM_RULE = "'tpm' must be a whole number of tokens a minute from 1 to " + MAX_LIMIT
            + ", or null for no limit.";

    static final String BUDGET_RULE = "'budget_usd' must be a number of US dollars above 0 and at most "
            + MAX_BUDGET.toPlainString() + " (such as 20 or 0.5), or null for no budget.";
    static final String PERIOD_RULE = "'budget_period' must be 'day' or 'month' (UTC), or null for a budget over"
            + " the key's whole life.";
    static final String PERIOD_WITHOUT_BUDGET = "'budget_period' needs a 'budget_usd': this key has no budget.";

    private PolicyMembers() {
    }

    /** The sentence saying what {@code member} must hold, for a value of the wrong kind. */
    static String rule(String member) {
        return switch (member) {
            case "models" -> MODELS_RULE;
            case "expires_at" -> EXPIRES_RULE;
            case "rpm" -> RPM_RULE;
            case "tpm" -> TPM_RULE;
            case "budget_usd" -> BUDGET_RULE;
            case "budget_period" -> PERIOD_RULE;
            default -> null;
        };
    }

    /**
     * {@code base} with the members {@code present} in the body applied.
     *
     * @throws ApiException a 400 naming the member at fault
     */
    public static KeyPolicy apply(KeyPolicy base, Set<String> present, JsonValue models, Long expiresAt, Long rpm,
                                  Long tpm, JsonValue budgetUsd, String budgetPeriod) {
        Optional<Usd> budget = present.contains("budget_usd") ? budget(budgetUsd) : base.budget();
        BudgetPeriod period = present.contains("budget_period") ? period(budgetPeriod) : base.period();
        if (budget.isEmpty()) {
            if (present.contains("budget_period") && period != BudgetPeriod.LIFETIME) {
                throw new ApiException(ApiError.invalidRequest("budget_period", PERIOD_WITHOUT_BUDGET));
            }
            // A budget cleared takes its period with it: a new budget starts as a lifetime one.
            period = BudgetPeriod.LIFETIME;
        }
        return new KeyPolicy(
                present.contains("models") ? models(models) : base.models(),
                present.contains("expires_at") ? expiry(expiresAt) : base.expiresAt(),
                present.contains("rpm") ? limit("rpm", rpm, RPM_RULE) : base.rpm(),
                present.contains("tpm") ? limit("tpm", tpm, TPM_RULE) : base.tpm(),
                budget, period);
    }

    /** Read as a JSON value: JSON-B would take the string {@code "20"} for a number. */
    private static Optional<Usd> budget(JsonValue value) {
        if (value == null || value.getValueType() == JsonValue.ValueType.NULL) {
            return Optional.empty();
        }
        if (!(value instanceof JsonNumber number)) {
            throw new ApiException(ApiError.invalidRequest("budget_usd", BUDGET_RULE));
        }
        BigDecimal dollars = number.bigDecimalValue();
        // Compared before rounding, so that no exponent can make the rounding itself costly.
        if (dollars.signum() <= 0 || dollars.compareTo(MAX_BUDGET) > 0) {
            throw new ApiException(ApiError.invalidRequest("budget_usd", BUDGET_RULE));
        }
        Usd usd = Usd.of(dollars);
        if (usd.nanos() == 0) {
            throw new ApiException(ApiError.invalidRequest("budget_usd", BUDGET_RULE));
        }
        return Optional.of(usd);
    }

    private static BudgetPeriod period(String label) {
        if (label == null) {
            return BudgetPeriod.LIFETIME;
        }
        return BudgetPeriod.ofLabel(label).orElseThrow(
                () -> new ApiException(ApiError.invalidRequest("budget_period", PERIOD_RULE)));
    }

    /** Read as a JSON value, not a list: JSON-B reports a list of the wrong kind without naming its member. */
    private static List<String> models(JsonValue models) {
        if (models == null || models.getValueType() == JsonValue.ValueType.NULL) {
            return List.of();
        }
        if (models instanceof JsonArray patterns && patterns.size() > MAX_PATTERNS) {
            throw new ApiException(ApiError.invalidRequest("models", "'models' lists " + patterns.size()
                    + " model ids or patterns, more than the " + MAX_PATTERNS + " a key may have: use patterns"
                    + " ('openai/*') to cover several models at once."));
        }
        if (!(models instanceof JsonArray patterns) || patterns.isEmpty()
                || !patterns.stream().allMatch(PolicyMembers::isPattern)) {
            throw new ApiException(ApiError.invalidRequest("models", MODELS_RULE));
        }
        return patterns.stream().map(pattern -> ((JsonString) pattern).getString()).distinct().toList();
    }

    private static boolean isPattern(JsonValue value) {
        if (!(value instanceof JsonString text)) {
            return false;
        }
        String pattern = text.getString();
        return !pattern.isEmpty() && pattern.length() <= MAX_PATTERN
                && Identifiers.hasOnlyShowableCharacters(pattern);
    }

    private static Optional<Instant> expiry(Long seconds) {
        if (seconds == null) {
            return Optional.empty();
        }
        if (seconds <= 0 || seconds > Instant.MAX.getEpochSecond() / 1000) {
            throw new ApiException(ApiError.invalidRequest("expires_at", EXPIRES_RULE));
        }
        return Optional.of(Instant.ofEpochSecond(seconds));
    }

    private static OptionalLong limit(String member, Long value, String rule) {
        if (value == null) {
            return OptionalLong.empty();
        }
        if (value < 1 || value > MAX_LIMIT) {
            throw new ApiException(ApiError.invalidRequest(member, rule));
        }
        return OptionalLong.of(value);
    }
}
