package io.aigw.runtime.catalogue;

import io.aigw.runtime.config.UpstreamTimeouts;
import io.aigw.runtime.plugin.Provider;
import java.io.IOException;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Each provider's model list as its upstream gives it, read at start and every
 * {@code gateway.catalogue.refresh} ({@link ModelListFetch}), beside the plugin's catalogue, which
 * keeps the names, context lengths and prices: a model of the catalogue the upstream no longer
 * lists is withdrawn (not listed, not routed), a model the upstream lists that the catalogue lacks
 * is listed, unpriced. A refresh that fails keeps the last good list, and says so once.
 */
public final class UpstreamCatalogues implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(UpstreamCatalogues.class.getName());

    private final Map<String, UpstreamModels> lists = new ConcurrentHashMap<>();
    private final AtomicLong version = new AtomicLong();
    private final Set<String> failing = ConcurrentHashMap.newKeySet();
    private final Optional<ScheduledExecutorService> refresher;
    private final Optional<ModelListFetch> fetch;

    private UpstreamCatalogues(Duration every, UpstreamTimeouts timeouts, Supplier<List<Provider>> providers) {
        if (every.isZero()) {
            this.refresher = Optional.empty();
            this.fetch = Optional.empty();
            return;
        }
        ModelListFetch lists = new ModelListFetch(timeouts.connect(), timeouts.firstByte());
        ScheduledExecutorService executor = Executors.newSingleThreadScheduledExecutor(
                Thread.ofPlatform().daemon().name("aigw-catalogue-refresh").factory());
        executor.scheduleWithFixedDelay(() -> refresh(lists, providers.get()), 0, every.toMillis(),
                TimeUnit.MILLISECONDS);
        this.refresher = Optional.of(executor);
        this.fetch = Optional.of(lists);
    }

    /**
     * The lists of {@code providers} (those in force when a refresh runs), read every {@code every};
     * never when {@code every} is zero: then the plugins' catalogues stand as they are.
     */
    public static UpstreamCatalogues every(Duration every, UpstreamTimeouts timeouts,
                                           Supplier<List<Provider>> providers) {
        return new UpstreamCatalogues(every, timeouts, providers);
    }

    /** The provider's list as its upstream last gave it; empty when none was read (yet, or ever). */
    public Optional<UpstreamModels> listed(Provider provider) {
        return Optional.ofNullable(lists.get(provider.name()));
    }

    /** Whether {@code model}, of the provider's catalogue, is one its upstream no longer lists. */
    public boolean withdrawn(Provider provider, String model) {
        UpstreamModels listed = lists.get(provider.name());
        return listed != null && !listed.ids().contains(model)
                && provider.catalogue().stream().anyMatch(entry -> entry.id().equals(model));
    }

    /** One more each time a list changes: what an answer made of the lists is cached by. */
    public long version() {
        return version.get();
    }

    private void refresh(ModelListFetch lists, List<Provider> providers) {
        Map<String, Provider> byName = new HashMap<>();
        providers.stream().filter(Provider::hasKey).forEach(provider -> byName.put(provider.name(), provider));
        for (Provider provider : byName.values()) {
            try {
                UpstreamModels fresh = lists.fetch(provider, provider.keys().getFirst());
                UpstreamModels before = this.lists.put(provider.name(), fresh);
                if (before == null || !before.ids().equals(fresh.ids())) {
                    version.incrementAndGet();
                    LOG.log(Level.INFO, "Models of " + provider.name() + ": " + fresh.ids().size() + " listed by its"
                            + " upstream; " + withdrawn(provider, fresh) + " of its catalogue no longer listed.");
                }
                if (failing.remove(provider.name())) {
                    LOG.log(Level.INFO, "Models of " + provider.name() + ": its upstream answers again.");
                }
            } catch (IOException | RuntimeException e) {
                if (failing.add(provider.name())) {
                    LOG.log(Level.WARNING, "Models of " + provider.name() + " could not be read from its upstream ("
                            + e.getMessage() + "); the last list read stays in force, or the plugin's catalogue.");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static long withdrawn(Provider provider, UpstreamModels listed) {
        return provider.catalogue().stream().filter(model -> !listed.ids().contains(model.id())).count();
    }

    @Override
    public void close() {
        refresher.ifPresent(ScheduledExecutorService::shutdownNow);
        fetch.ifPresent(ModelListFetch::close);
    }
}
