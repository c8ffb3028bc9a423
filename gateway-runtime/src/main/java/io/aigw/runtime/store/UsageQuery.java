package io.aigw.runtime.store;

import java.time.LocalDate;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What a usage report sums: the days from {@code from} to {@code to}, both included (UTC), grouped
 * by each of {@code groupBy} together (by key and day: a row per key per day), of one key or all.
 */
public record UsageQuery(LocalDate from, LocalDate to, Set<Dimension> groupBy, Optional<String> keyId) {

    public UsageQuery {
        Objects.requireNonNull(from, "from");
        Objects.requireNonNull(to, "to");
        if (to.isBefore(from)) {
            throw new IllegalArgumentException("'to' (" + to + ") is before 'from' (" + from + ")");
        }
        groupBy = groupBy.isEmpty() ? Set.of() : Set.copyOf(EnumSet.copyOf(groupBy));
        Objects.requireNonNull(keyId, "keyId");
    }

    /** What a report's rows can be grouped by. */
    public enum Dimension {
        /** The workspace key. */
        KEY,
        /** The provider and the model it was asked for. */
        MODEL,
        /** The day, UTC. */
        DAY
    }
}
