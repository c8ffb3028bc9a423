package io.aigw.runtime.store;

import java.lang.System.Logger.Level;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The store's health as last seen, so that nobody waits to learn it: every statement reports how it
 * went, and a background thread checks the database at an interval. While the database cannot be
 * reached, statements fail at once instead of each waiting out the connection timeout; while only
 * writes fail (a full disk, a file made read-only), reads go on and the check writes, so that it
 * sees when writing works again. An outage is logged once when it starts and once when it ends.
 */
final class HealthMonitor implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(HealthMonitor.class.getName());

    /** The checks, run on the monitor's thread. */
    interface Probe {
        /** Reads from the database. */
        void read() throws SQLException;

        /** Writes to the database something that changes nothing. */
        void write() throws SQLException;
    }

    /**
     * @param writesOnly whether reads still work, so that statements are not failed before they try
     */
    private record Fault(String what, boolean writesOnly, Instant since) {
    }

    private final Duration interval;
    private final Probe probe;
    private final DatabaseFaults faults;
    private final Thread checker;
    /** Null while the database serves. */
    private volatile Fault fault;
    private volatile boolean closed;

    HealthMonitor(Duration interval, Probe probe, DatabaseFaults faults) {
        this.interval = interval;
        this.probe = probe;
        this.faults = faults;
        this.checker = Thread.ofPlatform().daemon().name("aigw-store-health").start(this::checkUntilClosed);
    }

    StoreHealth health() {
        Fault current = fault;
        return current == null ? new StoreHealth.Up() : new StoreHealth.Down(current.what(), current.since());
    }

    /** Fails at once, before {@code what} is tried, when the database is known to be unreachable. */
    void admit(String what) {
        if (closed) {
            throw new StoreUnavailableException("Cannot " + what + ": the store is closed.", null, interval);
        }
        Fault current = fault;
        if (current != null && !current.writesOnly()) {
            throw new StoreUnavailableException("Cannot " + what + ": the database is " + current.what() + " since "
                    + current.since() + "; the gateway checks it again every " + interval.toMillis() + " ms.",
                    null, interval);
        }
    }

    /** A statement worked: a write clears any fault, a read one that was not about writes only. */
    void succeeded(boolean write) {
        if (fault != null) {
            recovered(write);
        }
    }

    private synchronized void recovered(boolean write) {
        Fault current = fault;
        if (current != null && !closed && (write || !current.writesOnly())) {
            fault = null;
            LOG.log(Level.INFO, "The database serves again, after " + Duration.between(current.since(), Instant.now())
                    .toSeconds() + " s (" + current.what() + ").");
        }
    }

    /** A statement failed: returns the exception to throw, having noted the fault if the database is at fault. */
    StoreException failed(String what, SQLException failure, boolean write) {
        String message = "Cannot " + what + ": " + failure.getMessage();
        return faults.unavailability(failure).<StoreException>map(reason -> {
            noteFault(reason, write, message);
            return new StoreUnavailableException(message, failure, interval);
        }).orElseGet(() -> new StoreException(message, failure));
    }

    private synchronized void noteFault(String what, boolean write, String message) {
        if (closed) {
            return;
        }
        Fault current = fault;
        if (current == null) {
            fault = new Fault(what, write, Instant.now());
            LOG.log(Level.ERROR, "The database fails (" + what + "): " + message + ". Until it serves again the gateway"
                    + " reports itself not ready, keeps usage records in memory (gateway.usage.queue-size) and checks"
                    + " the database every " + interval.toMillis() + " ms.");
        } else if (current.writesOnly() && !write) {
            // The same outage, grown worse: reads fail too now.
            fault = new Fault(what, false, current.since());
        }
    }

    private void checkUntilClosed() {
        while (!closed) {
            LockSupport.parkNanos(this, interval.toNanos());
            if (closed) {
                return;
            }
            Fault current = fault;
            boolean write = current != null && current.writesOnly();
            try {
                if (write) {
                    probe.write();
                } else {
                    probe.read();
                }
                succeeded(write);
            } catch (SQLException e) {
                // Whatever the check meets, the database is not serving.
                noteFault(faults.unavailability(e).orElse("failing"), write,
                        "Cannot check the database: " + e.getMessage());
            }
        }
    }

    /** Stops checking; from now on the store reports itself closed. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            fault = new Fault("closed", false, Instant.now());
        }
        // Not while holding the lock, which the checker may be waiting for to note what it saw.
        LockSupport.unpark(checker);
        try {
            checker.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
