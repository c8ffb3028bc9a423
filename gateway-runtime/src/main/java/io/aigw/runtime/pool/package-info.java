/**
 * Each provider's pool of upstream keys: which key an attempt takes ({@link KeyChoice}: by weight
 * and load, or by session), and what the gateway knows of each key's health ({@link KeyState}: a
 * 429 cools it, a 401/403 fails it, failures in a row eject it for a growing interval, after which
 * one call probes it). {@link KeyPools} is the entry; a {@link Lease} holds a key for one call and
 * hears how the call went. With Redis, {@link RedisKeyStates} shares cool-downs and ejections
 * between replicas. Nothing here ever holds a key's secret but the {@code UpstreamKey} it is given.
 */
package io.aigw.runtime.pool;
