/**
 * What a request used, in tokens, and what it is charged, beside {@code pricing}, which says what
 * tokens cost.
 *
 * <p>{@link io.aigw.runtime.metering.TokenUsage} is the one shape of usage that pricing, limits and
 * records share; {@link io.aigw.runtime.metering.ReportedUsage} reads it from what an upstream
 * reported (an answer's or a stream chunk's {@code usage}). Where an upstream reported none, an
 * answer's tokens are estimated from the text relayed ({@link io.aigw.runtime.metering.TextEstimate}),
 * and a {@link io.aigw.runtime.metering.Charge} is what a request is charged from either. This
 * package depends on {@code pricing} alone (and the shared JSON provider). The estimates a
 * reservation is made with before a request is sent live beside the limits they serve
 * ({@code limits.TokenEstimate}, {@code limits.RecentCompletions}).
 */
package io.aigw.runtime.metering;
