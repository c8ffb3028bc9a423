package io.aigw.runtime;

import io.aigw.runtime.admin.AdminKeysService;
import io.aigw.runtime.admin.AdminPluginsService;
import io.aigw.runtime.admin.AdminUpstreamsService;
import io.aigw.runtime.admin.AdminUsageService;
import io.aigw.runtime.admin.KeyIssuer;
import io.aigw.runtime.api.AnthropicModelsService;
import io.aigw.runtime.api.ChatCompletionsService;
import io.aigw.runtime.api.EmbeddingsService;
import io.aigw.runtime.api.MessagesService;
import io.aigw.runtime.api.ModelsService;
import io.aigw.runtime.api.RequestAdmission;
import io.aigw.runtime.api.ResponsesService;
import io.aigw.runtime.auth.FrontDoor;
import io.aigw.runtime.auth.Gate;
import io.aigw.runtime.auth.MasterKey;
import io.aigw.runtime.auth.StoredKeys;
import io.aigw.runtime.auth.WorkspaceKeyGate;
import io.aigw.runtime.batch.BatchWriter;
import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.GatewayConfig;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.console.Console;
import io.aigw.runtime.exchange.Dispatcher;
import io.aigw.runtime.exchange.ExchangeListener;
import io.aigw.runtime.exchange.StoredCalls;
import io.aigw.runtime.limits.QueuedSpend;
import io.aigw.runtime.limits.RateLimiter;
import io.aigw.runtime.observe.AccessLog;
import io.aigw.runtime.observe.ExchangeMetrics;
import io.aigw.runtime.observe.GatewayMetrics;
import io.aigw.runtime.observe.RecentExchanges;
import io.aigw.runtime.observe.ReadinessCheck;
import io.aigw.runtime.observe.RequestObserver;
import io.aigw.runtime.observe.UsageDrops;
import io.aigw.runtime.observe.UsageRecords;
import io.aigw.runtime.plugin.DiscoveredPlugin;
import io.aigw.runtime.plugin.FolderWatcher;
import io.aigw.runtime.plugin.PluginCalls;
import io.aigw.runtime.plugin.PluginDiscovery;
import io.aigw.runtime.plugin.PluginLoader;
import io.aigw.runtime.plugin.PluginSet;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.plugin.ProviderFactory;
import io.aigw.runtime.plugin.WatcherStatus;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.routing.CurrentRoutes;
import io.aigw.runtime.routing.PluginReloader;
import io.aigw.runtime.routing.ProviderTable;
import io.aigw.runtime.routing.RoutingSnapshot;
import io.aigw.runtime.routing.RoutingTable;
import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.JdbcStore;
import io.aigw.runtime.store.KeyPolicy;
import io.aigw.runtime.store.ResponseOwners;
import io.aigw.runtime.store.StoreUnavailableException;
import io.aigw.runtime.store.UsageRecord;
import io.aigw.runtime.trace.Tracing;
import io.aigw.runtime.trace.TracingSettings;
import io.aigw.runtime.transport.CallerTimeouts;
import io.aigw.runtime.transport.TransportOptions;
import io.helidon.common.tls.Tls;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.HttpRouting;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A running gateway: the providers assembled from the plugins found, the routes, and the HTTP server.
 */
public final class Gateway implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Gateway.class.getName());

    private final CurrentRoutes routes;
    private final Optional<FolderWatcher> watcher;
    private final PluginLoader plugins;
    private final GatewayStore store;
    private final Writers writers;
    private final Optional<AccessLog> accessLog;
    private final Upstreams upstreams;
    private final RateLimiter rateLimiter;
    private final RequestObserver requests;
    private final Optional<Tracing> tracing;
    private final Optional<RecentExchanges> recent;
    private final Duration gracePeriod;
    private final WebServer server;
    private final Optional<String> generatedMasterKey;

    private Gateway(CurrentRoutes routes, Optional<FolderWatcher> watcher,
                    PluginLoader plugins, GatewayStore store, Writers writers,
                    Optional<AccessLog> accessLog, Upstreams upstreams, RateLimiter rateLimiter,
                    RequestObserver requests, Optional<Tracing> tracing, Optional<RecentExchanges> recent,
                    Duration gracePeriod, WebServer server,
                    Optional<String> generatedMasterKey) {
        this.routes = routes;
        this.watcher = watcher;
        this.plugins = plugins;
        this.store = store;
        this.writers = writers;
        this.accessLog = accessLog;
        this.upstreams = upstreams;
        this.rateLimiter = rateLimiter;
        this.requests = requests;
        this.tracing = tracing;
        this.recent = recent;
        this.gracePeriod = gracePeriod;
        this.server = server;
        this.generatedMasterKey = generatedMasterKey;
    }

    /**
     * Builds and starts a gateway.
     *
     * @param plugins     the plugins found beside the gateway's classes ({@link PluginDiscovery#discover()}),
     *                    served beside those of the plugins folder ({@code gateway.plugins.dir}) for as
     *                    long as it runs
     * @param upstreamTls trust for upstream HTTPS; empty means {@code gateway.upstream-tls} from the
     *                    settings, or the JDK's default trust store
     * @throws io.aigw.runtime.config.ConfigurationException when the settings or plugins cannot work
     * @throws io.aigw.runtime.store.StoreException          when the database cannot be opened
     */
    public static Gateway start(Settings settings, List<DiscoveredPlugin> plugins, Optional<Tls> upstreamTls) {
        GatewayConfig config = GatewayConfig.read(settings);
        Optional<TracingSettings> tracing = TracingSettings.read(settings);
        ListenerPorts.requireListenable(config.listener());
        TransportOptions transport = TransportOptions.from(settings);
        CallerTimeouts callerTimeouts = CallerTimeouts.from(settings);
        PluginLoader loader = new PluginLoader(plugins, config.plugins().folder(),
                new PluginCalls(config.plugins().callTimeout()));
        try {
            ProviderFactory factory = new ProviderFactory(settings);
            PluginSet loaded = loader.load();
            RoutingTable routing = PluginReloader.build(factory, loaded, List.of());
            LOG.log(Level.INFO, ProviderTable.render(routing));
            PriceBook prices = PriceBook.of(Provider.prices(routing.byPriority()));
            LOG.log(Level.INFO, "Price table " + prices.version() + ": " + prices.size() + " models priced");

            Optional<MasterKey> masterKey = config.keys().masterKey().map(key -> MasterKey.of(key.value()));
            GatewayStore store = JdbcStore.open(config.database());
            try {
                return start(config, transport, callerTimeouts, new Plugins(loader, factory, loaded, routing), masterKey, store,
                        upstreamTls, tracing, settings.getBoolean("gateway.console.enabled", true));
            } catch (RuntimeException e) {
                store.close();
                throw e;
            }
        } catch (RuntimeException e) {
            loader.close();
            throw e;
        }
    }

    /** What writes to the store off the requests' threads, each to be closed (and emptied) at the end. */
    private record Writers(BatchWriter<UsageRecord> usage, ResponseOwners responses) {
    }

    /** The plugins loaded at start, the table built of them, and what reloads them. */
    private record Plugins(PluginLoader loader, ProviderFactory factory, PluginSet loaded, RoutingTable routing) {
    }

    private static Gateway start(GatewayConfig config, TransportOptions transport, CallerTimeouts callerTimeouts,
                                 Plugins plugins,
                                 Optional<MasterKey> masterKey, GatewayStore store, Optional<Tls> upstreamTls,
                                 Optional<TracingSettings> tracingSettings, boolean consoleOn) {
        // The first start of an empty store without a master key makes an admin key, shown once.
        Optional<String> generatedKey = masterKey.isEmpty() && !store.hasKeys()
                ? Optional.of(new KeyIssuer(store).issue("admin", true, KeyPolicy.NONE).key()) : Optional.empty();
        StoredKeys keys = new StoredKeys(masterKey, store, config.keys().cacheTtl(), config.keys().outageTtl());
        GatewayMetrics metrics = new GatewayMetrics(GatewayMetrics.globalRegistry(),
                plugins.routing().publicModelIds());
        // Records wait out a database outage in the queue; only what overflows it is lost.
        UsageDrops usageDrops = new UsageDrops(metrics);
        BatchWriter<UsageRecord> usage = new BatchWriter<>("usage records", config.usageQueue(),
                Duration.ofMillis(20), records -> usageDrops.refused(store.recordUsage(records)),
                new BatchWriter.Retry(config.database().checkInterval(), StoreUnavailableException.class::isInstance),
                usageDrops);
        Optional<AccessLog> accessLog = AccessLog.open(config.accessLog());
        ResponseOwners responses = new ResponseOwners(store, config.usageQueue(), config.database().checkInterval());

        GatewayConfig.Upstream upstream = config.upstream();
        Optional<Tls> tls = upstreamTls.or(() -> upstream.tls().map(Tls::create));
        Upstreams upstreams = Upstreams.start(upstream, config.rateLimits(), tls, transport.upstreamPool(),
                tracingSettings.isPresent());
        CurrentRoutes routes = new CurrentRoutes(plugins.routing(), plugins.loaded(), upstreams.lifecycle());
        PluginReloader reloader = new PluginReloader(plugins.loader(), plugins.factory(), routes, metrics);
        RateLimiter rateLimiter = RateLimiter.of(config.rateLimits(), metrics::limitStoreFailure, new QueuedSpend(
                (keyId, since) -> store.spentSince(keyId, Instant.ofEpochMilli(since)).nanos(), usage));

        RequestObserver requests = new RequestObserver(accessLog);
        // Off, tracing builds nothing: no filter, no listener on the path.
        Optional<Tracing> tracing = Tracing.start(tracingSettings, metrics::spansDropped);
        List<ExchangeListener> listeners = new ArrayList<>(List.of(new ExchangeMetrics(metrics),
                new UsageRecords(usage, tracing.isPresent())));
        tracing.ifPresent(on -> listeners.add(on.listener()));
        Optional<RecentExchanges> recent = Optional.of(new RecentExchanges(500)).filter(ring -> consoleOn);
        recent.ifPresent(listeners::add);
        Dispatcher dispatcher = new Dispatcher(routes, upstreams.forwarder(), upstreams.pools(), upstreams.catalogues(),
                rateLimiter, ExchangeListener.of(listeners), upstream.timeouts().total(), config.costHeader());
        RequestAdmission admission = new RequestAdmission(config.limits());
        HttpRouting.Builder httpRouting = ErrorAnswers.register(HttpRouting.builder())
                .addFilter(requests);
        tracing.ifPresent(on -> httpRouting.addFilter(on.filter()));
        Optional<Console> console = recent.map(ring -> new Console(keys, store, ring));
        List<Gate> gates = new ArrayList<>();
        console.ifPresent(on -> gates.add(on.sessionGate()));
        gates.add(new WorkspaceKeyGate(keys));
        httpRouting.addFilter(new FrontDoor(gates));
        console.ifPresent(on -> on.register(httpRouting));
        httpRouting
                .register("/api/v1/chat/completions", new ChatCompletionsService(dispatcher, admission))
                .register("/api/v1/responses", new ResponsesService(dispatcher, new StoredCalls(routes,
                        upstreams.forwarder(), rateLimiter, upstream.timeouts().total()), responses, admission))
                .register("/anthropic/v1/messages", new MessagesService(dispatcher, admission))
                .register("/anthropic/v1/models", new AnthropicModelsService(routes))
                .register("/api/v1/embeddings", new EmbeddingsService(dispatcher, admission))
                .register("/api/v1/models", new ModelsService(routes, upstreams.catalogues(), config.name()))
                .register("/admin/v1/keys", new AdminKeysService(store, keys))
                .register("/admin/v1/usage", new AdminUsageService(store))
                .register("/admin/v1/plugins", new AdminPluginsService(routes, reloader))
                .register("/admin/v1/upstreams", new AdminUpstreamsService(routes, upstreams.pools()));
        WatcherStatus watcherStatus = new WatcherStatus();
        WebServerConfig.Builder server = CallerListener.server(config, transport, callerTimeouts, httpRouting,
                new ReadinessCheck(() -> routes.current().table().byPriority().size(), store), watcherStatus);
        try {
            WebServer started = server.build().start();
            if (!started.isRunning()) {
                // Helidon logged why; ListenerPorts catches the usual causes before they get here.
                throw new ConfigurationException("the server could not open its ports (see the log above).");
            }
            Optional<FolderWatcher> watcher = FolderWatcher.startIfAsked(config.plugins(), plugins.loader().folder(),
                    plugins.loaded(), () -> reloader.reload("a jar changed in the plugins folder"), watcherStatus);
            return new Gateway(routes, watcher, plugins.loader(), store, new Writers(usage, responses), accessLog,
                    upstreams, rateLimiter, requests, tracing, recent, config.gracePeriod(), started, generatedKey);
        } catch (RuntimeException e) {
            tracing.ifPresent(Tracing::close);
            usage.close();
            responses.close();
            accessLog.ifPresent(AccessLog::close);
            upstreams.close();
            rateLimiter.close();
            throw e;
        }
    }

    /** The port the server listens on (useful when configured as 0). */
    public int port() {
        return server.port();
    }

    /** The admin key made at the first start of an empty store without a master key, if this was it. */
    public Optional<String> generatedMasterKey() {
        return generatedMasterKey;
    }

    /** The routing table in force. */
    public RoutingTable routing() {
        return routes.current().table();
    }

    /** The routing snapshot in force: its table and the plugins it was built from. */
    public RoutingSnapshot routes() {
        return routes.current();
    }

    /** The store, for tests and tools that look at what the gateway recorded. */
    public GatewayStore store() {
        return store;
    }

    /** The port of the separate observe socket, when {@code gateway.observe.port} asks for one. */
    public Optional<Integer> observePort() {
        int port = server.port(CallerListener.OBSERVE_SOCKET);
        return port > 0 ? Optional.of(port) : Optional.empty();
    }

    /**
     * Stops taking requests and lets those in flight, streams included, finish within the grace
     * period; then writes the usage records and log lines still queued and lets go of the rest.
     */
    @Override
    public void close() {
        watcher.ifPresent(FolderWatcher::close);
        upstreams.forwarder().stopping(gracePeriod);
        recent.ifPresent(RecentExchanges::close); // the console's live streams end
        server.stop();
        requests.awaitIdle(gracePeriod);
        writers.usage().close();
        writers.responses().close();
        accessLog.ifPresent(AccessLog::close);
        tracing.ifPresent(Tracing::close);
        upstreams.close();
        rateLimiter.close();
        plugins.close();
        store.close();
    }
}
