/**
 * The waits of a request on shared state (the key store, Redis) and on its upstreams' headers,
 * told to whoever listens: tracing makes them short spans and span events. A package of its own,
 * so that {@code auth}, {@code limits} and {@code upstream} can tell of their waits without
 * knowing tracing.
 */
package io.aigw.runtime.waits;
