package io.aigw.runtime.limits;

import io.aigw.runtime.config.StoreFailurePolicy;
import io.aigw.runtime.waits.Waits;
import io.helidon.common.context.Context;
import java.lang.System.Logger.Level;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Connection;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * Counts in Redis, shared by every replica that names it: each reservation is one
 * {@link RedisScripts#RESERVE} script, one round trip, over a pool of blocking connections (a
 * virtual thread waiting on one costs no carrier thread). Settling and releasing a reservation cost
 * the request nothing more: {@link RedisSettlements} sends them in batches, off its thread. A key's
 * budget is checked and reserved in the same script; when Redis has no count of the period's spend,
 * the script says so, the spend is read from the {@link SpendLedger} and the script runs again with
 * it: two round trips, once a period and after Redis lost the count.
 *
 * <p>When Redis cannot be asked, the request is served as {@link StoreFailurePolicy} says, counted
 * in {@code gateway_limit_store_failures_total}; the outage is logged once when it starts and once
 * when Redis answers again. Meanwhile one request a second tries Redis again, so that requests do
 * not each wait out a connection timeout; the first check that succeeds ends the outage.
 */
public final class RedisLimiter implements RateLimiter {
    private static final System.Logger LOG = System.getLogger(RedisLimiter.class.getName());
    private static final long RETRY_NANOS = Duration.ofSeconds(1).toNanos();

    private final RedisClient redis;
    private final String where;
    private final String prefix;
    private static final SecureRandom GENERATIONS = new SecureRandom();

    private final StoreFailurePolicy onFailure;
    private final SpendLedger ledger;
    private final Runnable storeFailed;
    private final String reserveSha;
    private final RedisSettlements settlements;
    private final Duration timeout;
    private final AtomicBoolean down = new AtomicBoolean();
    /** While Redis is down, when one request may try it again; the others meanwhile do not wait on it. */
    private final AtomicLong nextTryNanos = new AtomicLong();

    /**
     * @param url    {@code redis://[user:password@]host:port[/database]}, or {@code rediss://} for TLS
     * @param prefix put before each key id to name its window's hash
     * @param storeFailed counts a check or a settlement Redis could not answer (a metric, wired by the caller)
     * @param ledger      where a key's spend in its budget's period is rebuilt from when Redis has no count of it
     */
    public RedisLimiter(URI url, String prefix, Duration timeout, int poolSize, StoreFailurePolicy onFailure,
                        Runnable storeFailed, SpendLedger ledger) {
        this.ledger = ledger;
        this.where = url.getHost() + ":" + url.getPort();
        this.prefix = prefix;
        this.timeout = timeout;
        this.onFailure = onFailure;
        this.storeFailed = storeFailed;
        GenericObjectPoolConfig<Connection> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(poolSize);
        pool.setMaxIdle(poolSize);
        pool.setMaxWait(timeout);
        // Waiters are served in turn: an unfair pool let some requests wait far longer than others.
        pool.setFairness(true);
        DefaultJedisClientConfig.Builder client = DefaultJedisClientConfig.builder()
                .timeoutMillis((int) timeout.toMillis())
                .user(JedisURIHelper.getUser(url))
                .password(JedisURIHelper.getPassword(url))
                .ssl(JedisURIHelper.isRedisSSLScheme(url))
                .clientName("aigw-limits");
        if (JedisURIHelper.hasDbIndex(url)) {
            client.database(JedisURIHelper.getDBIndex(url));
        }
        this.redis = RedisClient.builder().hostAndPort(JedisURIHelper.getHostAndPort(url))
                .clientConfig(client.build()).poolConfig(pool).build();
        // Known without asking Redis, which may be down at start: EVALSHA loads them when it lacks them.
        this.reserveSha = sha1(RedisScripts.RESERVE);
        String adjustSha = sha1(RedisScripts.ADJUST);
        this.settlements = new RedisSettlements((keys, args) -> run(adjustSha, RedisScripts.ADJUST, keys, args),
                storeFailed);
    }

    /** As the other {@code reserve}; the round trips to Redis are a wait the request's {@link Waits} hear of. */
    @Override
    public Decision reserve(String keyId, Limits limits, long tokens, BudgetClaim budget, Context request) {
        try (Waits.Wait reservation = request.get(Waits.class).orElse(Waits.NONE)
                .begin(Waits.What.LIMITS_RESERVATION)) {
            return reserve(keyId, limits, tokens, budget);
        }
    }

    @Override
    public Decision reserve(String keyId, Limits limits, long tokens, BudgetClaim budget) {
        if (down.get() && !mayTryAgain()) {
            return failed(null);
        }
        List<String> keys = List.of(prefix + keyId, prefix + keyId + ":spend:" + budget.period());
        List<?> answer;
        try {
            answer = reserve(keys, limits, tokens, budget, "", "");
            if ((Long) answer.get(0) == 4) {
                // Redis has no count of this period's spend (a first request, a new period, a Redis
                // flushed or restarted): rebuilt from the database, then the same script again. This
                // gateway's adjustments still queued are sent first: those of requests whose usage
                // records the ledger counts must not add their cost to the rebuilt count as well.
                settlements.awaitSent(timeout);
                long spent = ledger.spentNanos(keyId, budget.periodStartMillis());
                answer = reserve(keys, limits, tokens, budget, Long.toString(spent),
                        Long.toHexString(GENERATIONS.nextLong()));
            }
        } catch (JedisException e) {
            return failed(e);
        }
        if (down.compareAndSet(true, false)) {
            LOG.log(Level.INFO, "Rate limits: Redis at " + where + " answers again; limits are enforced.");
        }
        long refused = (Long) answer.get(0);
        long start = (Long) answer.get(1);
        Quota quota = new Quota(limits, (Long) answer.get(2), (Long) answer.get(3), (Long) answer.get(4),
                (Long) answer.get(5));
        if (refused != 0) {
            return new Decision.Refused(quota, refused == 1 ? "requests" : refused == 2 ? "tokens" : "budget");
        }
        String generation = budget.applies() ? text(answer.get(6)) : "";
        long cost = budget.applies() ? budget.costNanos() : 0;
        return new Decision.Admitted(new Held(keys, start, tokens, generation, cost), Optional.of(quota));
    }

    private List<?> reserve(List<String> keys, Limits limits, long tokens, BudgetClaim budget, String seed,
                            String generation) {
        return (List<?>) run(reserveSha, RedisScripts.RESERVE, keys, List.of(Long.toString(limits.rpm()),
                Long.toString(limits.tpm()), Long.toString(tokens), Long.toString(Limits.WINDOW_MILLIS),
                Long.toString(budget.budgetNanos()), Long.toString(budget.costNanos()), seed, generation,
                Long.toString(budget.periodEndMillis())));
    }

    private static String text(Object reply) {
        return reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(reply);
    }

    /** Whether this request is the one that tries Redis again: one a retry interval. */
    private boolean mayTryAgain() {
        long now = System.nanoTime();
        long next = nextTryNanos.get();
        return now - next >= 0 && nextTryNanos.compareAndSet(next, now + RETRY_NANOS);
    }

    private Decision failed(JedisException cause) {
        storeFailed.run();
        if (cause != null) {
            nextTryNanos.set(System.nanoTime() + RETRY_NANOS);
            if (down.compareAndSet(false, true)) {
                LOG.log(Level.WARNING, "Rate limits: Redis at " + where + " cannot be asked (" + cause.getMessage()
                        + "); until it answers, requests of keys with limits are "
                        + (onFailure == StoreFailurePolicy.ALLOW ? "served unchecked" : "refused with 503")
                        + " (gateway.limits.on-store-failure: " + onFailure.name().toLowerCase() + ").");
            }
        }
        return onFailure == StoreFailurePolicy.ALLOW
                ? new Decision.Admitted(Reservation.NONE, Optional.empty()) : new Decision.Unavailable();
    }

    private Object run(String sha, String script, List<String> keys, List<String> args) {
        try {
            return redis.evalsha(sha, keys, args);
        } catch (JedisNoScriptException e) {
            // A Redis restarted or flushed has forgotten the script: EVAL sends it and caches it again.
            return redis.eval(script, keys, args);
        }
    }

    /** Sends the adjustments still queued, then closes the connections. */
    @Override
    public void close() {
        settlements.close();
        redis.close();
    }

    /**
     * A reservation made in the window that started at {@code windowStart} (Redis's clock) and, for a
     * key with a budget, in the spend count of {@code generation} ('' without a budget).
     */
    private final class Held implements Reservation {
        private final RedisSettlements.Slot slot;
        private final long tokens;
        private final long cost;

        Held(List<String> keys, long windowStart, long tokens, String generation, long cost) {
            this.slot = new RedisSettlements.Slot(keys.get(0), keys.get(1), windowStart, generation);
            this.tokens = tokens;
            this.cost = cost;
        }

        @Override
        public void settle(long used, long costNanos) {
            long real = costNanos < 0 ? cost : costNanos;
            if (used != tokens || (!slot.generation().isEmpty() && real != cost)) {
                adjust(0, used - tokens, real - cost, real);
            }
        }

        @Override
        public void release() {
            adjust(-1, -tokens, -cost, 0);
        }

        /** Queued, off the request's path; until it lands, the estimates stay counted: the side of caution. */
        private void adjust(long requests, long tokenDelta, long costDelta, long wholeCost) {
            settlements.add(new RedisSettlements.Adjustment(slot, requests, tokenDelta, costDelta, wholeCost));
        }
    }

    private static String sha1(String script) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-1")
                    .digest(script.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is part of every JDK", e);
        }
    }
}
