package io.aigw.runtime.api;

import java.lang.System.Logger.Level;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * One log line when a limit turns callers away, then none for that limit for a minute: the
 * operator learns that the gateway is full and which setting decides it, without a line a request.
 */
final class LimitLog {
    private static final System.Logger LOG = System.getLogger(LimitLog.class.getName());
    private static final long QUIET_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final ConcurrentHashMap<String, Long> lastLogged = new ConcurrentHashMap<>();

    /** Notes that {@code what} are at their limit, which {@code setting} sets. */
    void reached(String what, String setting) {
        long now = System.nanoTime();
        Long last = lastLogged.get(what);
        if ((last == null || now - last > QUIET_NANOS)
                && (last == null ? lastLogged.putIfAbsent(what, now) == null : lastLogged.replace(what, last, now))) {
            LOG.log(Level.WARNING, "At the limit of " + what + " in flight (" + setting + "): callers get 503 with"
                    + " Retry-After until some end; docs/operations.md, \"Sizing\", says how to raise it.");
        }
    }
}
