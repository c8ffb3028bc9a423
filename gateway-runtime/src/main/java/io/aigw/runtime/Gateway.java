package io.aigw.runtime;

import io.aigw.runtime.admin.AdminKeysService;
import io.aigw.runtime.admin.AdminUsageService;
import io.aigw.runtime.admin.KeyIssuer;
import io.aigw.runtime.api.ChatCompletionsService;
import io.aigw.runtime.api.ModelsService;
import io.aigw.runtime.auth.MasterKey;
import io.aigw.runtime.auth.StoredKeys;
import io.aigw.runtime.auth.WorkspaceKeyFilter;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.plugin.DiscoveredPlugin;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.plugin.ProviderFactory;
import io.aigw.runtime.routing.RoutingTable;
import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.JdbcStore;
import io.aigw.runtime.upstream.ChatForwarder;
import io.aigw.runtime.upstream.UpstreamTimeouts;
import io.aigw.runtime.usage.UsageRecorder;
import io.helidon.common.tls.Tls;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A running gateway: the providers assembled from the plugins found, the routes, and the HTTP server.
 */
public final class Gateway implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Gateway.class.getName());
    /** {@code gateway.max-body-size}: 10 MiB by default. */
    public static final long DEFAULT_MAX_BODY_BYTES = 10L * 1024 * 1024;

    private final RoutingTable routing;
    private final GatewayStore store;
    private final UsageRecorder usage;
    private final ChatForwarder forwarder;
    private final WebServer server;
    private final Optional<String> generatedMasterKey;

    private Gateway(RoutingTable routing, GatewayStore store, UsageRecorder usage, ChatForwarder forwarder,
                    WebServer server, Optional<String> generatedMasterKey) {
        this.routing = routing;
        this.store = store;
        this.usage = usage;
        this.forwarder = forwarder;
        this.server = server;
        this.generatedMasterKey = generatedMasterKey;
    }

    /**
     * Builds and starts a gateway.
     *
     * @param upstreamTls trust for upstream HTTPS; empty means {@code gateway.upstream-tls} from the
     *                    settings, or the JDK's default trust store
     * @throws io.aigw.runtime.config.ConfigurationException when the settings or plugins cannot work
     * @throws io.aigw.runtime.store.StoreException          when the database cannot be opened
     */
    public static Gateway start(Settings settings, List<DiscoveredPlugin> plugins, Optional<Tls> upstreamTls) {
        List<Provider> providers = new ProviderFactory(settings).create(plugins);
        RoutingTable routing = RoutingTable.of(providers);
        LOG.log(Level.INFO, ProviderTable.render(routing));

        Optional<MasterKey> masterKey = settings.get("gateway.master-key").map(MasterKey::of);
        GatewayStore store = JdbcStore.open(settings);
        // The first start of an empty store without a master key makes an admin key, shown once.
        Optional<String> generatedKey = masterKey.isEmpty() && !store.hasKeys()
                ? Optional.of(new KeyIssuer(store).issue("admin", true).key()) : Optional.empty();
        StoredKeys keys = new StoredKeys(masterKey, store,
                settings.getDuration("gateway.keys.cache-ttl", Duration.ofSeconds(5)));
        UsageRecorder usage = new UsageRecorder(store, settings.getInt("gateway.usage.queue-size", 10_000),
                settings.getDuration("gateway.usage.flush-interval", Duration.ofSeconds(1)));

        UpstreamTimeouts timeouts = new UpstreamTimeouts(
                settings.getDuration("gateway.timeouts.connect", UpstreamTimeouts.DEFAULTS.connect()),
                settings.getDuration("gateway.timeouts.first-byte", UpstreamTimeouts.DEFAULTS.firstByte()),
                settings.getDuration("gateway.timeouts.idle", UpstreamTimeouts.DEFAULTS.idle()));
        Optional<Tls> tls = upstreamTls.or(() -> settings.node("gateway.upstream-tls").exists()
                ? Optional.of(Tls.create(settings.node("gateway.upstream-tls"))) : Optional.empty());
        ChatForwarder forwarder = new ChatForwarder(providers, timeouts,
                settings.getDuration("gateway.auto.key-cooldown", Duration.ofSeconds(60)), tls);
        long maxBodyBytes = settings.getLong("gateway.max-body-size", DEFAULT_MAX_BODY_BYTES);
        String label = settings.get("gateway.name", "aigw");

        HttpRouting.Builder httpRouting = HttpRouting.builder()
                .addFilter(new WorkspaceKeyFilter(keys))
                .register("/api/v1/chat/completions",
                        new ChatCompletionsService(routing, forwarder, usage, maxBodyBytes))
                .register("/api/v1/models", new ModelsService(routing, label))
                .register("/admin/v1/keys", new AdminKeysService(store, keys))
                .register("/admin/v1/usage", new AdminUsageService(store))
                .error(ApiException.class, (request, response, e) -> e.error().send(response))
                .error(Exception.class, (request, response, e) -> {
                    LOG.log(Level.ERROR, "Unexpected failure answering " + request.prologue().uriPath().path(), e);
                    new ApiError(Status.INTERNAL_SERVER_ERROR_500, "The gateway failed unexpectedly; this is a bug,"
                            + " and the gateway's log has the details.", "server_error", null, null).send(response);
                });
        WebServer server = WebServer.builder()
                .config(settings.node("server"))
                .host(settings.get("gateway.host", "0.0.0.0"))
                .port(settings.getInt("gateway.port", 8080))
                .routing(httpRouting)
                .build()
                .start();
        return new Gateway(routing, store, usage, forwarder, server, generatedKey);
    }

    /** The port the server listens on (useful when configured as 0). */
    public int port() {
        return server.port();
    }

    /** The admin key made at the first start of an empty store without a master key, if this was it. */
    public Optional<String> generatedMasterKey() {
        return generatedMasterKey;
    }

    public RoutingTable routing() {
        return routing;
    }

    /** The store, for tests and tools that look at what the gateway recorded. */
    public GatewayStore store() {
        return store;
    }

    /** Stops taking requests, writes the usage still queued, then lets go of upstreams and the store. */
    @Override
    public void close() {
        server.stop();
        usage.close();
        forwarder.close();
        store.close();
    }
}
