package io.aigw.runtime.observe;

import io.aigw.runtime.exchange.ExchangeListener;
import io.aigw.runtime.exchange.ExchangeRecord;
import java.util.Optional;

/**
 * One request as its access log line and usage records name it: its id, given as it enters, and
 * the trace and the exchange it joins on its way. {@link RequestObserver}, the outermost filter,
 * registers it in the request's context, and the others fill it in rather than register what they
 * learn: a type no one registered (a trace, with tracing off) is looked for in every parent
 * context, each under a lock, and each registration takes the context's write lock.
 */
public final class ObservedRequest implements ExchangeListener {
    private final String id;
    private volatile String traceId;
    private volatile ExchangeRecord exchange;

    ObservedRequest(String id) {
        this.id = id;
    }

    /** A request no {@link RequestObserver} saw (an endpoint served without the gateway's filters): id "none". */
    public static ObservedRequest unobserved() {
        return new ObservedRequest("none");
    }

    /** The request's id, returned in {@code X-Request-Id}. */
    public String id() {
        return id;
    }

    /** The id of the trace the request is part of (32 lowercase hex digits), or null with tracing off. */
    public String traceId() {
        return traceId;
    }

    /** Set by tracing, when the request's span begins. */
    public void traceId(String traceId) {
        this.traceId = traceId;
    }

    /** What became of the request's exchange, once it ended; empty for a request refused before one. */
    Optional<ExchangeRecord> exchange() {
        return Optional.ofNullable(exchange);
    }

    /** Keeps what became of the request's exchange, for its access log line. */
    @Override
    public void exchangeEnded(ExchangeRecord record) {
        this.exchange = record;
    }
}
