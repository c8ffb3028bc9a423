/**
 * The exchange: one path for every endpoint between its HTTP adapter ({@code api}) and the calls
 * to upstreams ({@code upstream}).
 *
 * <p>An endpoint's adapter reads and validates a request into an {@link io.aigw.runtime.exchange.Exchange}
 * and hands it to the {@link io.aigw.runtime.exchange.Dispatcher} with the caller's response. The
 * dispatcher admits it (its key's allowed models, then a reservation within its limits and budget),
 * routes it, makes its attempts (one route, or {@code gateway/auto}'s chain with fallback), each of
 * which the upstream layer returns as an immutable {@link io.aigw.runtime.upstream.Attempt}, and
 * settles it: its charge and its reservation, into an {@link io.aigw.runtime.exchange.ExchangeRecord}
 * built from its attempts. Whatever else wants to know what happened (metrics, the access log,
 * usage records, tracing) implements {@link io.aigw.runtime.exchange.ExchangeListener}; nothing on
 * this path calls them otherwise.
 */
package io.aigw.runtime.exchange;
