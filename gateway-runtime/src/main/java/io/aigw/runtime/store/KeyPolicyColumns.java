package io.aigw.runtime.store;

import io.aigw.runtime.pricing.Usd;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** A {@link KeyPolicy} as the six columns of {@code workspace_keys} that hold it, null where unset. */
final class KeyPolicyColumns {
    /** Patterns are kept one a line: a model id holds no line break (the admin API refuses one). */
    private static final String SEPARATOR = "\n";

    private KeyPolicyColumns() {
    }

    /** Binds {@code models, expires_at, rpm, tpm, budget_nanos, budget_period} from parameter {@code first} on. */
    static void bind(PreparedStatement statement, int first, KeyPolicy policy) throws SQLException {
        if (policy.models().isEmpty()) {
            statement.setNull(first, Types.VARCHAR);
        } else {
            statement.setString(first, String.join(SEPARATOR, policy.models()));
        }
        bindLong(statement, first + 1, policy.expiresAt().map(Instant::toEpochMilli)
                .map(OptionalLong::of).orElse(OptionalLong.empty()));
        bindLong(statement, first + 2, policy.rpm());
        bindLong(statement, first + 3, policy.tpm());
        bindLong(statement, first + 4, policy.budget().map(usd -> OptionalLong.of(usd.nanos()))
                .orElse(OptionalLong.empty()));
        String period = policy.budget().isPresent() ? policy.period().label() : null;
        if (period == null) {
            statement.setNull(first + 5, Types.VARCHAR);
        } else {
            statement.setString(first + 5, period);
        }
    }

    /** Reads {@code models, expires_at, rpm, tpm, budget_nanos, budget_period} from column {@code first} on. */
    static KeyPolicy read(ResultSet rows, int first) throws SQLException {
        String models = rows.getString(first);
        OptionalLong expires = readLong(rows, first + 1);
        return new KeyPolicy(models == null ? List.of() : List.of(models.split(SEPARATOR)),
                expires.isPresent() ? Optional.of(Instant.ofEpochMilli(expires.getAsLong())) : Optional.empty(),
                readLong(rows, first + 2), readLong(rows, first + 3), budget(readLong(rows, first + 4)),
                period(rows.getString(first + 5)));
    }

    private static Optional<Usd> budget(OptionalLong nanos) {
        return nanos.isPresent() ? Optional.of(new Usd(nanos.getAsLong())) : Optional.empty();
    }

    /** A period this version does not know (written by a newer one) reads as the shortest: the side of caution. */
    private static BudgetPeriod period(String label) {
        return label == null ? BudgetPeriod.LIFETIME : BudgetPeriod.ofLabel(label).orElse(BudgetPeriod.DAY);
    }

    private static void bindLong(PreparedStatement statement, int index, OptionalLong value) throws SQLException {
        if (value.isPresent()) {
            statement.setLong(index, value.getAsLong());
        } else {
            statement.setNull(index, Types.BIGINT);
        }
    }

    private static OptionalLong readLong(ResultSet rows, int index) throws SQLException {
        long value = rows.getLong(index);
        return rows.wasNull() ? OptionalLong.empty() : OptionalLong.of(value);
    }
}
