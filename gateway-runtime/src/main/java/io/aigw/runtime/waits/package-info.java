/**
 * The waits of a request on shared state (the key store, Redis), told to whoever listens: tracing
 * makes them short spans. A package of its own, so that {@code auth} and {@code limits} can tell of
 * their waits without knowing tracing.
 */
package io.aigw.runtime.waits;
