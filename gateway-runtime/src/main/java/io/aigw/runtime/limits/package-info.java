/**
 * Each key's request and token limits ({@code rpm}, {@code tpm}) and USD budget: a request reserves
 * before it is forwarded and settles to what it used and cost after, so that requests in flight at
 * once cannot overrun a limit or a budget between a check and a count. A budget's spend so far is
 * rebuilt from the usage records ({@link SpendLedger}) wherever a limiter has no count of it.
 *
 * <p>A key's window is a minute from its first request after the last window ended; the reset a
 * caller is told is that window's end. {@link LocalLimiter} counts in this process's memory, for
 * one gateway; {@link RedisLimiter} counts in Redis, one atomic script per check, so that replicas
 * sharing a Redis enforce one limit between them, and settles off the request's path
 * ({@link RedisSettlements}).
 */
package io.aigw.runtime.limits;
