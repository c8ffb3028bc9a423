package io.aigw.runtime.trace;

/** Hears of spans that never reached the collector, by reason: {@code queue_full} or {@code export_failed}. */
@FunctionalInterface
public interface SpanDrops {

    /** {@code spans} spans were dropped for {@code reason}. */
    void dropped(String reason, long spans);
}
