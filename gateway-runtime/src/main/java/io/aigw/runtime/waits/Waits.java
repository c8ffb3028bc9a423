package io.aigw.runtime.waits;

/**
 * Hears of the waits of one request on the gateway's shared state, beside its upstream calls.
 * Tracing leaves one in the context of a request whose span records; code that may wait looks for
 * it only on the path that waits (a key the cache did not have, a reservation sent to Redis, an
 * attempt of a traced request), so that an untraced request, or one that does not wait, pays
 * nothing for it.
 */
@FunctionalInterface
public interface Waits {
    /** Hears of nothing. */
    Waits NONE = what -> Wait.NONE;

    /** A wait for {@code what} begins; closing what this returns ends it. */
    Wait begin(What what);

    /** What a request waits for. */
    enum What {
        /** The workspace key looked up in the store, when the cache did not have it. */
        KEY_LOOKUP,
        /** The key's limits and budget reserved in Redis, shared by the replicas. */
        LIMITS_RESERVATION,
        /**
         * An attempt's request sent and its answer's headers awaited: a connection taken from the
         * pool or opened, the request written, and the upstream's time to its first byte.
         */
        UPSTREAM_HEADERS
    }

    /** One wait in progress. */
    @FunctionalInterface
    interface Wait extends AutoCloseable {
        /** A wait no one hears of. */
        Wait NONE = () -> { };

        /** The wait is over. */
        @Override
        void close();
    }
}
