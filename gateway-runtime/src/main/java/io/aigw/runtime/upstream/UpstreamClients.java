package io.aigw.runtime.upstream;

import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.plugin.UpstreamKey;
import io.helidon.common.LazyValue;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * One {@link UpstreamClient} per upstream key of each installed {@link Provider} instance, built on
 * first use, kept as
 * long as a routing snapshot that holds the provider is retained, and closed when the last one is
 * released. A reload keeps the instance of a provider that did not change, so its client (and the
 * connections it keeps alive) carries on; a provider removed or changed keeps its client until the
 * requests routed to it before the reload have ended.
 *
 * <p>Looked up by identity on every request, in a map replaced whole at each change, which only a
 * reload makes.
 */
final class UpstreamClients implements AutoCloseable {
    private final BiFunction<Provider, UpstreamKey, UpstreamClient> factory;
    private volatile Map<Provider, Holder> clients = new IdentityHashMap<>();

    /** A provider's clients, by key name, and how many retained snapshots hold the provider; changed under the lock only. */
    private static final class Holder {
        final Map<String, LazyValue<UpstreamClient>> clients;
        int snapshots;

        Holder(Map<String, LazyValue<UpstreamClient>> clients) {
            this.clients = clients;
        }
    }

    UpstreamClients(BiFunction<Provider, UpstreamKey, UpstreamClient> factory) {
        this.factory = factory;
    }

    /** The client of one of the keys of a provider of a retained snapshot. */
    UpstreamClient clientFor(Provider provider, UpstreamKey key) {
        Holder holder = clients.get(provider);
        LazyValue<UpstreamClient> client = holder == null ? null : holder.clients.get(key.name());
        if (client == null) {
            throw new IllegalStateException("No upstream client for key " + key.name() + " of provider "
                    + provider.name() + ": no retained routing snapshot holds it");
        }
        return client.get();
    }

    /** A snapshot holding {@code providers} becomes current. */
    synchronized void retain(Collection<Provider> providers) {
        Map<Provider, Holder> next = new IdentityHashMap<>(clients);
        for (Provider provider : providers) {
            next.computeIfAbsent(provider, this::holder).snapshots++;
        }
        clients = next;
    }

    /** A snapshot holding {@code providers} is released: the clients no other one holds close. */
    synchronized void release(Collection<Provider> providers) {
        Map<Provider, Holder> next = new IdentityHashMap<>(clients);
        for (Provider provider : providers) {
            Holder holder = next.get(provider);
            if (holder != null && --holder.snapshots == 0) {
                next.remove(provider);
                close(holder);
            }
        }
        clients = next;
    }

    private Holder holder(Provider provider) {
        Map<String, LazyValue<UpstreamClient>> byKey = new HashMap<>();
        for (UpstreamKey key : provider.keys()) {
            byKey.put(key.name(), LazyValue.create(() -> factory.apply(provider, key)));
        }
        return new Holder(Map.copyOf(byKey));
    }

    @Override
    public synchronized void close() {
        clients.values().forEach(UpstreamClients::close);
        clients = new IdentityHashMap<>();
    }

    private static void close(Holder holder) {
        for (LazyValue<UpstreamClient> client : holder.clients.values()) {
            if (client.isLoaded()) {
                client.get().close();
            }
        }
    }
}
