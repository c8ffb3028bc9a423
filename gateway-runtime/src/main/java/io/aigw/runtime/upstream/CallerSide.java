package io.aigw.runtime.upstream;

import io.aigw.runtime.pricing.PriceBook;
import io.helidon.common.context.Context;
import io.helidon.webserver.http.ServerResponse;
import java.util.Optional;

/**
 * The caller's side of one request, the same for every provider tried.
 *
 * @param response     where the answer goes
 * @param hangup       hears when the caller leaves
 * @param requestId    sent upstream as {@code X-Request-Id}
 * @param startedNanos {@link System#nanoTime()} when the request came
 * @param endsAt       when the request's total time is up, in {@link System#nanoTime()}
 * @param costHeader   the prices that state a plain answer's cost in {@link Upstream#COST_HEADER};
 *                     empty when that header is off
 * @param context      the request's context, where an attempt finds the {@link UpstreamTrace} it sends on
 */
public record CallerSide(ServerResponse response, Hangup hangup, String requestId, long startedNanos, long endsAt,
                         Optional<PriceBook> costHeader, Context context) {
}
