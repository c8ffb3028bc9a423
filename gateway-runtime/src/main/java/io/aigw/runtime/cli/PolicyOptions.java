package io.aigw.runtime.cli;

import io.aigw.runtime.admin.PolicyMembers;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.error.Jsons;
import jakarta.json.JsonValue;
import io.aigw.runtime.store.KeyPolicy;
import java.math.BigDecimal;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The policy options of {@code gateway keys create} and {@code keys update}: {@code --models a,b},
 * {@code --expires <time>}, {@code --rpm <n>}, {@code --tpm <n>}, {@code --budget <usd>},
 * {@code --period day|month}, each cleared by {@code all}, {@code never} or {@code none} (a period of
 * {@code none}: the budget is the key's lifetime's). They are checked by the admin API's rules ({@link PolicyMembers}),
 * so both ways of setting a policy accept the same values.
 */
final class PolicyOptions {
    private final Set<String> present = new HashSet<>();
    private JsonValue models;
    private Long expiresAt;
    private Long rpm;
    private Long tpm;
    private JsonValue budget;
    private String period;

    /** Thrown for an option that is not one of these, or a value that cannot be read. */
    static final class Mistake extends Exception {
        Mistake(String message) {
            super(message, null, false, false);
        }
    }

    /** Whether {@code option} is one of these. */
    static boolean isPolicyOption(String option) {
        return List.of("--models", "--expires", "--rpm", "--tpm", "--budget", "--period").contains(option);
    }

    /** Reads one option and its value. */
    void read(String option, String value) throws Mistake {
        switch (option) {
            case "--models" -> {
                present.add("models");
                models = value.equals("all") ? null : Jsons.PROVIDER.createArrayBuilder(
                        Arrays.stream(value.split(",", -1)).map(String::strip).toList()).build();
            }
            case "--expires" -> {
                present.add("expires_at");
                expiresAt = value.equals("never") ? null : epochSeconds(value);
            }
            case "--rpm" -> {
                present.add("rpm");
                rpm = value.equals("none") ? null : number("--rpm", value);
            }
            case "--tpm" -> {
                present.add("tpm");
                tpm = value.equals("none") ? null : number("--tpm", value);
            }
            case "--budget" -> {
                present.add("budget_usd");
                budget = value.equals("none") ? null : Jsons.PROVIDER.createValue(dollars(value));
            }
            case "--period" -> {
                present.add("budget_period");
                period = value.equals("none") ? null : value;
            }
            default -> throw new Mistake("unknown option '" + option + "'");
        }
    }

    /** {@code base} with the options given applied. */
    KeyPolicy applyTo(KeyPolicy base) throws Mistake {
        try {
            return PolicyMembers.apply(base, present, models, expiresAt, rpm, tpm, budget, period);
        } catch (ApiException e) {
            throw new Mistake(e.error().message().replace("'models'", "--models").replace("'expires_at'", "--expires")
                    .replace("'rpm'", "--rpm").replace("'tpm'", "--tpm").replace("'budget_usd'", "--budget")
                    .replace("'budget_period'", "--period").replace("null", "'all', 'never' or 'none'"));
        }
    }

    /** An ISO-8601 time ({@code 2026-12-31T18:00:00Z}), a day ({@code 2026-12-31}: its start, UTC) or unix seconds. */
    private static long epochSeconds(String value) throws Mistake {
        try {
            if (value.chars().allMatch(Character::isDigit)) {
                return Long.parseLong(value);
            }
            if (value.length() == 10) {
                return LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toEpochSecond();
            }
            return Instant.parse(value).getEpochSecond();
        } catch (DateTimeException | NumberFormatException e) {
            throw new Mistake("--expires takes a time such as 2026-12-31T18:00:00Z, a day such as 2026-12-31,"
                    + " unix seconds, or 'never'; not '" + value + "'");
        }
    }

    private static BigDecimal dollars(String value) throws Mistake {
        try {
            // Plain digits only: no exponent, which could make a later rounding costly.
            if (!value.matches("[0-9]{1,12}(\\.[0-9]{1,12})?")) {
                throw new NumberFormatException(value);
            }
            return new BigDecimal(value);
        } catch (NumberFormatException e) {
            throw new Mistake("--budget takes US dollars such as 20 or 0.5, or 'none', not '" + value + "'");
        }
    }

    private static long number(String option, String value) throws Mistake {
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new Mistake(option + " takes a whole number or 'none', not '" + value + "'");
        }
    }
}
