package io.aigw.runtime.pool;

import java.lang.System.Logger.Level;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.exceptions.JedisException;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.util.JedisURIHelper;

/**
 * Cool-downs and ejections shared in Redis: one string per key and kind,
 * {@code <prefix><provider>:<key>:cooling} (or {@code :ejected}), holding until when in epoch
 * milliseconds and expiring then, so that Redis keeps nothing once it is over. A replica writes
 * what it learns off the request's thread, and reads what the others wrote every refresh in one
 * {@code MGET}; a replica that cannot reach Redis goes on with what it learns alone, and says so
 * once.
 */
final class RedisKeyStates implements SharedKeyStates {
    private static final System.Logger LOG = System.getLogger(RedisKeyStates.class.getName());

    private final RedisClient redis;
    private final String prefix;
    private final String where;
    private final KeyPools pools;
    private final ThreadPoolExecutor writes;
    private final ScheduledExecutorService reads;
    private final AtomicBoolean down = new AtomicBoolean();

    RedisKeyStates(URI url, String prefix, Duration timeout, Duration refresh, KeyPools pools) {
        this.prefix = prefix;
        this.pools = pools;
        this.where = url.getHost() + ":" + url.getPort();
        DefaultJedisClientConfig.Builder client = DefaultJedisClientConfig.builder()
                .timeoutMillis((int) timeout.toMillis())
                .user(JedisURIHelper.getUser(url))
                .password(JedisURIHelper.getPassword(url))
                .ssl(JedisURIHelper.isRedisSSLScheme(url))
                .clientName("aigw-pools");
        if (JedisURIHelper.hasDbIndex(url)) {
            client.database(JedisURIHelper.getDBIndex(url));
        }
        this.redis = RedisClient.builder().hostAndPort(JedisURIHelper.getHostAndPort(url))
                .clientConfig(client.build()).build();
        // What cannot be written while Redis is slow is dropped: the next 429 or ejection says it again.
        this.writes = new ThreadPoolExecutor(1, 1, 0, TimeUnit.MILLISECONDS, new ArrayBlockingQueue<>(1024),
                Thread.ofPlatform().daemon().name("aigw-pools-redis-write").factory(),
                new ThreadPoolExecutor.DiscardPolicy());
        this.reads = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("aigw-pools-redis-read").factory());
        reads.scheduleWithFixedDelay(this::refresh, 0, refresh.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Override
    public void cooling(String provider, String key, long until) {
        write(provider + ":" + key + ":cooling", until);
    }

    @Override
    public void ejected(String provider, String key, long until) {
        write(provider + ":" + key + ":ejected", until);
    }

    private void write(String name, long until) {
        writes.execute(() -> {
            long ttl = until - System.currentTimeMillis();
            if (ttl <= 0) {
                return;
            }
            try {
                redis.set(prefix + name, Long.toString(until), SetParams.setParams().px(ttl));
                up();
            } catch (JedisException e) {
                failed(e);
            }
        });
    }

    /** Reads what every replica shared of the keys this one knows. */
    private void refresh() {
        List<KeyPools.KnownKey> known = pools.known();
        if (known.isEmpty()) {
            return;
        }
        List<String> names = new ArrayList<>(known.size() * 2);
        for (KeyPools.KnownKey key : known) {
            names.add(prefix + key.provider() + ":" + key.name() + ":cooling");
            names.add(prefix + key.provider() + ":" + key.name() + ":ejected");
        }
        List<String> values;
        try {
            values = redis.mget(names.toArray(String[]::new));
            up();
        } catch (RuntimeException e) {
            // A JedisException, or an answer not as written (another tool under the same prefix).
            failed(e);
            return;
        }
        for (int i = 0; i < known.size(); i++) {
            long cooling = millis(values.get(2 * i));
            long ejected = millis(values.get(2 * i + 1));
            if (cooling > 0 || ejected > 0) {
                known.get(i).state().shared(cooling, ejected);
            }
        }
    }

    private static long millis(String value) {
        if (value == null) {
            return 0;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private void up() {
        if (down.compareAndSet(true, false)) {
            LOG.log(Level.INFO, "Upstream pools: Redis at " + where + " answers again; cool-downs and ejections"
                    + " are shared with the other replicas.");
        }
    }

    private void failed(Exception e) {
        if (down.compareAndSet(false, true)) {
            LOG.log(Level.WARNING, "Upstream pools: Redis at " + where + " cannot be reached (" + e.getMessage()
                    + "); this replica learns of its keys' cool-downs and ejections alone until it can.");
        }
    }

    @Override
    public void close() {
        reads.shutdownNow();
        writes.shutdown();
        try {
            writes.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        redis.close();
    }
}
