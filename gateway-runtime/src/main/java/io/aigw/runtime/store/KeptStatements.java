package io.aigw.runtime.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * Statements prepared once on a physical connection and used again for as long as the pool hands
 * out that connection, which for one thread is most of the time: the pool gives a thread the
 * connection it used last. Preparing the usage writer's insert and the rollup's upsert for every
 * batch cost SQLite about 30 us a batch on the gateway's core (issue 50); PostgreSQL's driver keeps
 * a statement it has prepared on the server for as long as the statement is open.
 *
 * <p>The statements are prepared on the connection under the pool's wrapper, which the pool does
 * not track: they outlive a return to the pool, and end with the connection when the pool closes
 * it. Not having seen them run, the pool does not roll back their work when the connection comes
 * back either: whoever uses them rolls back a failed transaction itself ({@link UsageWriter#record}). Not
 * thread-safe: one writer uses it.
 */
final class KeptStatements {
    private final Map<String, PreparedStatement> statements = new HashMap<>();
    private Connection preparedOn;

    /**
     * The statement of {@code sql} on the physical connection under {@code pooled}, prepared there on
     * its first use, with no rows batched (a use that failed may have left some); the statements of
     * another connection are closed first.
     */
    PreparedStatement of(Connection pooled, String sql) throws SQLException {
        Connection physical = pooled.unwrap(Connection.class);
        if (physical != preparedOn) {
            forget();
            preparedOn = physical;
        }
        PreparedStatement statement = statements.get(sql);
        if (statement == null || statement.isClosed()) {
            statement = physical.prepareStatement(sql);
            statements.put(sql, statement);
        } else {
            statement.clearBatch();
        }
        return statement;
    }

    /** Closes every statement. */
    private void forget() {
        for (PreparedStatement statement : statements.values()) {
            try {
                statement.close();
            } catch (SQLException e) {
                // Its connection has failed or closed, and the statement with it.
            }
        }
        statements.clear();
        preparedOn = null;
    }
}
