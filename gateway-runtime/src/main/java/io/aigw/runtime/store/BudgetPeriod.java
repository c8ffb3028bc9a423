package io.aigw.runtime.store;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.Locale;
import java.util.Optional;

/** The span a key's budget is spent over before it starts again: a UTC day, a UTC month, or the key's life. */
public enum BudgetPeriod {
    DAY,
    MONTH,
    LIFETIME;

    /** How the admin API and the CLI write it; {@code null} for a lifetime budget, which has no name there. */
    public String label() {
        return this == LIFETIME ? null : name().toLowerCase(Locale.ROOT);
    }

    /** The period a label names: {@code day}, {@code month}; empty for anything else. */
    public static Optional<BudgetPeriod> ofLabel(String label) {
        return switch (label) {
            case "day" -> Optional.of(DAY);
            case "month" -> Optional.of(MONTH);
            default -> Optional.empty();
        };
    }

    /**
     * The name the limiters count the period holding {@code now} under ({@code day:<start ms>},
     * {@code month:<start ms>}, {@code life}): a new name starts a new count.
     */
    public String countName(Instant now) {
        return switch (this) {
            case DAY, MONTH -> label() + ":" + start(now).toEpochMilli();
            case LIFETIME -> "life";
        };
    }

    /** How a budget's message says it is spent over: {@code a day (UTC)}, {@code a month (UTC)}, {@code in all}. */
    public String phrase() {
        return switch (this) {
            case DAY -> "a day (UTC)";
            case MONTH -> "a month (UTC)";
            case LIFETIME -> "in all";
        };
    }

    /** When the period holding {@code now} started; the epoch for a lifetime. */
    public Instant start(Instant now) {
        LocalDate day = LocalDate.ofInstant(now, ZoneOffset.UTC);
        return switch (this) {
            case DAY -> day.atStartOfDay(ZoneOffset.UTC).toInstant();
            case MONTH -> day.withDayOfMonth(1).atStartOfDay(ZoneOffset.UTC).toInstant();
            case LIFETIME -> Instant.EPOCH;
        };
    }

    /** When the period holding {@code now} ends; empty for a lifetime. */
    public Optional<Instant> end(Instant now) {
        LocalDate day = LocalDate.ofInstant(now, ZoneOffset.UTC);
        return switch (this) {
            case DAY -> Optional.of(day.plusDays(1).atStartOfDay(ZoneOffset.UTC).toInstant());
            case MONTH -> Optional.of(day.withDayOfMonth(1).plusMonths(1).atStartOfDay(ZoneOffset.UTC).toInstant());
            case LIFETIME -> Optional.empty();
        };
    }
}
