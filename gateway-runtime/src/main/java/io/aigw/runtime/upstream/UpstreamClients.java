package io.aigw.runtime.upstream;

import io.aigw.runtime.plugin.Provider;
import io.helidon.common.LazyValue;
import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * One {@link UpstreamClient} per installed {@link Provider} instance, built on first use, kept as
 * long as a routing snapshot that holds the provider is retained, and closed when the last one is
 * released. A reload keeps the instance of a provider that did not change, so its client (and the
 * connections it keeps alive) carries on; a provider removed or changed keeps its client until the
 * requests routed to it before the reload have ended.
 *
 * <p>Looked up by identity on every request, in a map replaced whole at each change, which only a
 * reload makes.
 */
final class UpstreamClients implements AutoCloseable {
    private final Function<Provider, UpstreamClient> factory;
    private volatile Map<Provider, Holder> clients = new IdentityHashMap<>();

    /** A provider's client and how many retained snapshots hold the provider; changed under the lock only. */
    private static final class Holder {
        final LazyValue<UpstreamClient> client;
        int snapshots;

        Holder(LazyValue<UpstreamClient> client) {
            this.client = client;
        }
    }

    UpstreamClients(Function<Provider, UpstreamClient> factory) {
        this.factory = factory;
    }

    /** The client of a provider of a retained snapshot. */
    UpstreamClient clientFor(Provider provider) {
        Holder holder = clients.get(provider);
        if (holder == null) {
            throw new IllegalStateException("No upstream client for provider " + provider.name()
                    + ": no retained routing snapshot holds it");
        }
        return holder.client.get();
    }

    /** A snapshot holding {@code providers} becomes current. */
    synchronized void retain(Collection<Provider> providers) {
        Map<Provider, Holder> next = new IdentityHashMap<>(clients);
        for (Provider provider : providers) {
            next.computeIfAbsent(provider, key -> new Holder(LazyValue.create(() -> factory.apply(key))))
                    .snapshots++;
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

    @Override
    public synchronized void close() {
        clients.values().forEach(UpstreamClients::close);
        clients = new IdentityHashMap<>();
    }

    private static void close(Holder holder) {
        if (holder.client.isLoaded()) {
            holder.client.get().close();
        }
    }
}
