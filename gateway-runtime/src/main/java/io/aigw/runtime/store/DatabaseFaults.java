package io.aigw.runtime.store;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.Optional;

/**
 * Tells a database that cannot serve now (down, unreachable, out of disk, read-only) from one that
 * refused a statement (a value it cannot store, a bug). Only the first kind makes the store
 * unhealthy and is worth a retry: a batch refused for its data would fail the same way forever.
 */
enum DatabaseFaults {
    /** sqlite-jdbc, which reports SQLite's primary result code as the error code and no SQL state. */
    SQLITE,
    /** PostgreSQL's driver, which reports SQL states. */
    POSTGRESQL;

    static DatabaseFaults of(boolean sqlite) {
        return sqlite ? SQLITE : POSTGRESQL;
    }

    /**
     * What keeps the database from serving, in a few words for readiness, or empty when the failure
     * is the statement's own.
     */
    Optional<String> unavailability(SQLException failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            Optional<String> fault = !(cause instanceof SQLException sql) ? Optional.empty()
                    : this == SQLITE ? sqliteFault(sql.getErrorCode()) : sqlStateFault(sql.getSQLState());
            if (fault.isPresent()) {
                return fault;
            }
        }
        // Hikari's "no connection within the timeout" and the drivers' broken connections.
        return failure instanceof SQLTransientConnectionException || failure instanceof SQLNonTransientConnectionException
                || failure instanceof SQLRecoverableException ? Optional.of("unreachable") : Optional.empty();
    }

    /** SQLite's primary result codes. */
    private static Optional<String> sqliteFault(int resultCode) {
        return Optional.ofNullable(switch (resultCode) {
            case 3, 8 -> "not writable";            // SQLITE_PERM, SQLITE_READONLY
            case 5, 6, 15 -> "locked";              // SQLITE_BUSY, SQLITE_LOCKED, SQLITE_PROTOCOL
            case 7 -> "out of memory";              // SQLITE_NOMEM
            case 10 -> "I/O error";                 // SQLITE_IOERR, e.g. a -wal file made unwritable
            case 11, 26 -> "corrupt";               // SQLITE_CORRUPT, SQLITE_NOTADB
            case 13 -> "disk full";                 // SQLITE_FULL
            case 14 -> "cannot open the file";      // SQLITE_CANTOPEN
            default -> null;
        });
    }

    /** The standard's classes, with PostgreSQL's codes where it is more precise. */
    private static Optional<String> sqlStateFault(String state) {
        if (state == null || state.length() != 5) {
            return Optional.empty();
        }
        return Optional.ofNullable(switch (state) {
            case "53100" -> "disk full";
            case "25006" -> "read-only";            // a standby, e.g. after a failover
            case "57P01", "57P02", "57P03" -> "unreachable";  // shut down, or starting up
            case "XX001", "XX002" -> "corrupt";
            default -> switch (state.substring(0, 2)) {
                case "08" -> "unreachable";         // connection exceptions
                case "53" -> "out of resources";
                case "58" -> "I/O error";
                default -> null;
            };
        });
    }
}
