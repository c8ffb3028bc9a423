package io.aigw.runtime.admin;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.store.UsageQuery;
import io.aigw.runtime.store.UsageQuery.Dimension;
import io.helidon.common.parameters.Parameters;
import java.time.DateTimeException;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a usage report's query parameters; a value that cannot be used is a 400 naming it.
 *
 * <p>{@code from} and {@code to} are days, both included: {@code 2026-11-01}, or an instant (ISO-8601
 * or unix seconds) standing for its day in UTC, since the report sums whole days.
 */
final class UsageParameters {
    private UsageParameters() {
    }

    static UsageQuery read(Parameters query, LocalDate today) {
        LocalDate to = day(query, "to").orElse(today);
        LocalDate from = day(query, "from").orElseGet(() -> to.withDayOfMonth(1));
        if (to.isBefore(from)) {
            throw new ApiException(ApiError.invalidRequest("from", "'from' must not be after 'to'."));
        }
        Optional<String> key = query.first("key").asOptional().filter(id -> !id.isEmpty());
        return new UsageQuery(from, to, groupBy(query), key);
    }

    /** The names of {@code dimensions}, in the order key, model, upstream_key, endpoint, day. */
    static List<String> names(Set<Dimension> dimensions) {
        return Arrays.stream(Dimension.values()).filter(dimensions::contains).map(Dimension::label).toList();
    }

    private static Set<Dimension> groupBy(Parameters query) {
        String text = query.first("group_by").orElse("key");
        Set<Dimension> dimensions = EnumSet.noneOf(Dimension.class);
        for (String name : text.split(",", -1)) {
            dimensions.add(Dimension.named(name.strip()).orElseThrow(() -> new ApiException(ApiError.invalidRequest(
                    "group_by", "'group_by' must be key, model, upstream_key, endpoint or day, or several of"
                            + " them separated by commas (key,day)."))));
        }
        return dimensions;
    }

    private static Optional<LocalDate> day(Parameters query, String name) {
        return query.first(name).asOptional().map(text -> {
            LocalDate day;
            try {
                day = UsageQuery.day(text);
            } catch (DateTimeException e) {
                throw new ApiException(ApiError.invalidRequest(name, "'" + name + "' must be a day such as"
                        + " 2026-01-31, or an instant (ISO-8601 or unix seconds) standing for its day in UTC."));
            }
            if (!UsageQuery.isCounted(day)) {
                throw new ApiException(ApiError.invalidRequest(name, "'" + name + "' must be between "
                        + UsageQuery.EARLIEST + " and " + UsageQuery.LATEST + "."));
            }
            return day;
        });
    }
}
