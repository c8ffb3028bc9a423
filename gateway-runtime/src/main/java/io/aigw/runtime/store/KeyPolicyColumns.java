package io.aigw.runtime.store;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** A {@link KeyPolicy} as the four columns of {@code workspace_keys} that hold it, null where unset. */
final class KeyPolicyColumns {
    /** Patterns are kept one a line: a model id holds no line break (the admin API refuses one). */
    private static final String SEPARATOR = "\n";

    private KeyPolicyColumns() {
    }

    /** Binds {@code models, expires_at, rpm, tpm} from parameter {@code first} on. */
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
    }

    /** Reads {@code models, expires_at, rpm, tpm} from column {@code first} on. */
    static KeyPolicy read(ResultSet rows, int first) throws SQLException {
        String models = rows.getString(first);
        OptionalLong expires = readLong(rows, first + 1);
        return new KeyPolicy(models == null ? List.of() : List.of(models.split(SEPARATOR)),
                expires.isPresent() ? Optional.of(Instant.ofEpochMilli(expires.getAsLong())) : Optional.empty(),
                readLong(rows, first + 2), readLong(rows, first + 3));
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
