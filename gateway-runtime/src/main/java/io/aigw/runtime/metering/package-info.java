/**
 * What a request used, in tokens, and what it is charged, beside {@code pricing}, which says what
 * tokens cost.
 *
 * <p>{@link io.aigw.runtime.metering.TokenUsage} is the one shape of usage that pricing, limits and
 * records share; {@link io.aigw.runtime.metering.ReportedUsage} reads it from what an upstream
 * reported (an answer's or a stream chunk's {@code usage}). Where an upstream reported none, it is
 * estimated: a request's tokens before it is sent from its body's length
 * ({@link io.aigw.runtime.metering.TokenEstimate}), an answer's from the text relayed
 * ({@link io.aigw.runtime.metering.TextEstimate}). This package depends on {@code pricing} alone
 * (and the shared JSON provider).
 */
package io.aigw.runtime.metering;
