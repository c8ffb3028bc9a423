package io.aigw.runtime.routing;

import io.aigw.runtime.HotPathBenchmark;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.plugin.PriceOrigin;
import io.aigw.runtime.plugin.Provider;
import io.aigw.spi.UpstreamApi;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Routing a model id with the five shipped providers: a known prefix, an unknown one that goes to
 * the catch-all, and an unknown one when no provider is the catch-all (the 404 path).
 */
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class RoutingTableBenchmark extends HotPathBenchmark {
    private RoutingTable shipped;
    private RoutingTable withoutCatchAll;
    private String knownPrefix;
    private String unknownPrefix;

    @Setup
    public void setUp() {
        List<Provider> providers = List.of(
                provider("openai", true, false, 1, "https://api.openai.com/v1"),
                provider("gemini", true, false, 2, "https://generativelanguage.googleapis.com/v1beta/openai"),
                provider("anthropic", true, false, 3, "https://api.anthropic.com/v1"),
                provider("xai", true, false, 4, "https://api.x.ai/v1"),
                provider("openrouter", false, true, 5, "https://openrouter.ai/api/v1"));
        shipped = RoutingTable.of(providers);
        withoutCatchAll = RoutingTable.of(providers.subList(0, 4));
        knownPrefix = "openai/gpt-5";
        unknownPrefix = "mistralai/mistral-large";
    }

    @Benchmark
    public Route knownPrefix() {
        return shipped.route(knownPrefix);
    }

    @Benchmark
    public Route unknownPrefixToCatchAll() {
        return shipped.route(unknownPrefix);
    }

    @Benchmark
    public void unknownPrefixWithoutCatchAll(Blackhole blackhole) {
        try {
            blackhole.consume(withoutCatchAll.route(unknownPrefix));
        } catch (ApiException e) {
            blackhole.consume(e);
        }
    }

    private static Provider provider(String prefix, boolean stripsPrefix, boolean catchAll, int priority,
            String baseUrl) {
        return new Provider(prefix, prefix, stripsPrefix, catchAll, "default-model", priority, URI.create(baseUrl),
                List.of(), prefix.toUpperCase() + "_API_KEY", Map.of(), Set.of(), List.of(), PriceOrigin.UNSTATED, 0, "benchmark",
                Provider.urls(URI.create(baseUrl), Map.of(UpstreamApi.CHAT_COMPLETIONS, "/chat/completions")), Set.of());
    }
}
