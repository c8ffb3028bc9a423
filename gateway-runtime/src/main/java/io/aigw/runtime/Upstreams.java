package io.aigw.runtime;

import io.aigw.runtime.catalogue.UpstreamCatalogues;
import io.aigw.runtime.config.GatewayConfig;
import io.aigw.runtime.config.RateLimitsConfig;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.pool.KeyPools;
import io.aigw.runtime.routing.CurrentRoutes;
import io.aigw.runtime.transport.TransportOptions.Choice;
import io.aigw.runtime.upstream.Upstream;
import io.helidon.common.tls.Tls;
import java.util.List;
import java.util.Optional;

/**
 * The gateway's side of its upstreams, started and closed together and kept in step with the
 * routing snapshots: the forwarder (one client per key), the providers' key pools, and their
 * model lists as the upstreams give them.
 */
record Upstreams(Upstream forwarder, KeyPools pools, UpstreamCatalogues catalogues, Installed installed)
        implements AutoCloseable {

    /** The providers of the snapshot installed last: what a catalogue refresh reads. */
    private static final class Installed {
        volatile List<Provider> providers = List.of();
    }

    /**
     * @param redis  where the pools share their keys' cool-downs and ejections, when it names a Redis
     * @param traced whether tracing is on
     */
    static Upstreams start(GatewayConfig.Upstream config, RateLimitsConfig redis, Optional<Tls> tls, Choice pool,
                           boolean traced) {
        Installed installed = new Installed();
        return new Upstreams(new Upstream(config.timeouts(), tls, pool, traced), new KeyPools(config.pools(), redis),
                UpstreamCatalogues.every(config.catalogueRefresh(), config.timeouts(), () -> installed.providers),
                installed);
    }

    /** What a snapshot's coming and going does here: its keys known, its clients kept while it is held. */
    CurrentRoutes.Lifecycle lifecycle() {
        return new CurrentRoutes.Lifecycle(snapshot -> {
            List<Provider> providers = snapshot.table().byPriority();
            pools.install(providers);
            forwarder.retain(providers);
            installed.providers = providers;
        }, snapshot -> forwarder.release(snapshot.table().byPriority()));
    }

    @Override
    public void close() {
        forwarder.close();
        pools.close();
        catalogues.close();
    }
}
