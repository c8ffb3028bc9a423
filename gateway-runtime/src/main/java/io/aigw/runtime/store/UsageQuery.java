package io.aigw.runtime.store;

import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.EnumSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a usage report sums: the days from {@code from} to {@code to}, both included (UTC), grouped
 * by each of {@code groupBy} together (by key and day: a row per key per day), of one key or all.
 */
public record UsageQuery(LocalDate from, LocalDate to, Set<Dimension> groupBy, Optional<String> keyId) {
    /** The days a report counts in: a four-digit year, as the CSV and the answers write it. */
    public static final LocalDate EARLIEST = LocalDate.of(1970, 1, 1);
    public static final LocalDate LATEST = LocalDate.of(9999, 12, 31);

    public UsageQuery {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        if (to.isBefore(from)) {
            throw new IllegalArgumentException("'to' (" + to + ") is before 'from' (" + from + ")");
        }
        groupBy = groupBy.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(groupBy));
        Objects.requireNonNull(keyId, "keyId");
    }

    /**
     * A day as reports are asked for them: {@code 2026-11-01}, or an instant (ISO-8601 or unix
     * seconds) standing for its day in UTC, since a report sums whole days.
     *
     * @throws DateTimeException when {@code text} is none of these
     */
    public static LocalDate day(String text) {
        try {
            return text.length() == 10 && text.charAt(4) == '-' ? LocalDate.parse(text)
                    // ASCII digits only: Character.isDigit and Long.parseLong take Arabic-Indic ones too.
                    : !text.isEmpty() && text.chars().allMatch(c -> c >= '0' && c <= '9')
                    ? LocalDate.ofInstant(Instant.ofEpochSecond(Long.parseLong(text)), ZoneOffset.UTC)
                    : LocalDate.ofInstant(Instant.parse(text), ZoneOffset.UTC);
        } catch (NumberFormatException e) {
            throw new DateTimeException("not a number of seconds: " + text, e);
        }
    }

    /** Whether reports count {@code day}: from {@link #EARLIEST} to {@link #LATEST}. */
    public static boolean isCounted(LocalDate day) {
        return !day.isBefore(EARLIEST) && !day.isAfter(LATEST);
    }

    /** What a report's rows can be grouped by. */
    public enum Dimension {
        /** The workspace key. */
        KEY,
        /** The provider and the model it was asked for. */
        MODEL,
        /** The provider and the name of its upstream key that was called ({@code providers.<name>.keys}). */
        UPSTREAM_KEY,
        /** The endpoint asked on: {@code chat_completions}, {@code embeddings}... */
        ENDPOINT,
        /** The day, UTC. */
        DAY;

        /**
         * The dimension a report's parameters call {@code name} ({@code key}, {@code model},
         * {@code upstream_key}, {@code endpoint}, {@code day}).
         */
        public static Optional<Dimension> named(String name) {
            for (Dimension dimension : values()) {
                if (dimension.label().equals(name)) {
                    return Optional.of(dimension);
                }
            }
            return Optional.empty();
        }

        /** Its name in a report's parameters and answers. */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
