package io.aigw.runtime.store;

import java.time.Instant;

/** Whether the database served the last request and check, as last seen; reading it never waits. */
public sealed interface StoreHealth {

    /** The database answers and writes. */
    record Up() implements StoreHealth {
    }

    /**
     * The database is failing.
     *
     * @param fault what is wrong, in a few words that name no host, file or user ("unreachable",
     *              "disk full"); the log has the driver's message
     * @param since when the failure was first seen
     */
    record Down(String fault, Instant since) implements StoreHealth {
    }
}
