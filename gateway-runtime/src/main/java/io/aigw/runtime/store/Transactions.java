package io.aigw.runtime.store;

import java.sql.Connection;
import java.sql.SQLException;

/** Ending a transaction that failed. */
final class Transactions {
    private Transactions() {
    }

    /**
     * Rolls back a failed transaction. SQLite has rolled back already after an I/O error; its "no
     * transaction is active" must not hide why the write failed, so it is added to {@code failure}.
     */
    static void rollBack(Connection connection, Exception failure) {
        try {
            connection.rollback();
        } catch (SQLException rollback) {
            failure.addSuppressed(rollback);
        }
    }
}
