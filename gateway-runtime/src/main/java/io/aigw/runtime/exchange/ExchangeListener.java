package io.aigw.runtime.exchange;

import io.aigw.runtime.routing.Route;
import io.aigw.runtime.upstream.Attempt;
import java.util.List;

/**
 * Hears what happens to each exchange, on the request's own thread: the one seam for metrics,
 * the access log, usage records and tracing. Each method must return at once: anything slow
 * (writing a record, a line) is handed to a queue.
 */
public interface ExchangeListener {

    /** The exchange passed its key's policies and begins. */
    default void exchangeStarted(Exchange exchange) {
    }

    /** A provider is about to be called along {@code route}. */
    default void attemptStarted(Exchange exchange, Route route) {
    }

    /** The call along the route last started ended. */
    default void attemptEnded(Exchange exchange, Attempt attempt) {
    }

    /** {@code gateway/auto} moved past an attempt that failed, to the next provider or to none. */
    default void passedOver(Exchange exchange, Attempt attempt) {
    }

    /** The exchange ended, its reservation settled: what it was charged and how it ended. */
    default void exchangeEnded(ExchangeRecord record) {
    }

    /** One listener that tells each of {@code listeners}, in order. */
    static ExchangeListener of(List<ExchangeListener> listeners) {
        return new Listeners(listeners.toArray(ExchangeListener[]::new));
    }
}
