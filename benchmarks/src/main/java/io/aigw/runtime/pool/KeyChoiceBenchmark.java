package io.aigw.runtime.pool;

import io.aigw.runtime.HotPathBenchmark;
import io.aigw.runtime.config.PoolsConfig;
import io.aigw.runtime.plugin.PriceOrigin;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.plugin.UpstreamKey;
import io.aigw.spi.UpstreamApi;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * What choosing an upstream key adds to an attempt: {@link KeyPools#choose} and the lease's end,
 * for a provider of {@code keys} keys of mixed weights, without a session (two drawn by weight, the
 * less loaded taken) and with one (weighted rendezvous), and with an rpm on every key.
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class KeyChoiceBenchmark extends HotPathBenchmark {
    @Param({"1", "4", "16"})
    public int keys;

    private KeyPools pools;
    private Provider provider;
    private Provider limited;

    @Setup
    public void setUp() {
        pools = new KeyPools(PoolsConfig.DEFAULTS);
        provider = provider(OptionalLong.empty());
        limited = provider(OptionalLong.of(Long.MAX_VALUE));
        pools.install(List.of(provider, limited));
    }

    @Benchmark
    public String chooseAndRelease() {
        try (Lease lease = pools.choose(provider, null, Set.of()).orElseThrow()) {
            lease.answered(5);
            return lease.key().name();
        }
    }

    @Benchmark
    public String chooseForASession() {
        try (Lease lease = pools.choose(provider, "agent-session-1234", Set.of()).orElseThrow()) {
            lease.answered(5);
            return lease.key().name();
        }
    }

    @Benchmark
    public String chooseUnderRpm() {
        try (Lease lease = pools.choose(limited, null, Set.of()).orElseThrow()) {
            lease.answered(5);
            return lease.key().name();
        }
    }

    private Provider provider(OptionalLong rpm) {
        URI url = URI.create("https://api.openai.com/v1");
        Map<UpstreamApi, URI> apis = Provider.urls(url, Map.of(UpstreamApi.CHAT_COMPLETIONS, "/chat/completions"));
        List<UpstreamKey> pool = new ArrayList<>();
        for (int i = 0; i < keys; i++) {
            pool.add(new UpstreamKey("key-" + i, "sk-" + i, 1 + i % 3, url, apis, rpm, OptionalLong.empty()));
        }
        String name = rpm.isPresent() ? "limited" : "openai";
        return new Provider(name, name, true, false, "gpt-5", 1, url, List.copyOf(pool), "OPENAI_API_KEY", Map.of(),
                Set.of(), List.of(), PriceOrigin.UNSTATED, 0, "benchmark", apis, Set.of());
    }
}
