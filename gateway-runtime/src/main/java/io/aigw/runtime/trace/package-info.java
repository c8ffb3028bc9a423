/**
 * Tracing with OpenTelemetry, beside the request path: a server span per request to the API
 * surfaces in the caller's W3C trace context ({@link io.aigw.runtime.trace.ServerSpans}), a client
 * span per upstream attempt with the GenAI semantic conventions' attributes (an
 * {@link io.aigw.runtime.exchange.ExchangeListener}, {@link io.aigw.runtime.trace.ExchangeSpans}),
 * exported over OTLP/HTTP behind a bounded queue whose drops are counted
 * ({@link io.aigw.runtime.trace.BoundedExport}). Off by default; then nothing here is built.
 */
package io.aigw.runtime.trace;
