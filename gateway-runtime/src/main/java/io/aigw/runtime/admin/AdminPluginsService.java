package io.aigw.runtime.admin;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.plugin.LoadedJar;
import io.aigw.runtime.plugin.PriceOrigin;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.pricing.PriceBook;
import io.aigw.runtime.routing.CurrentRoutes;
import io.aigw.runtime.routing.PluginReloader;
import io.aigw.runtime.routing.ReloadOutcome;
import io.aigw.runtime.routing.RoutingSnapshot;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;

/**
 * {@code /admin/v1/plugins}: the providers installed now ({@code GET}), and a reload of the plugins
 * folder ({@code POST /reload}), which answers what it changed, or 409 with why it was refused while
 * the providers in force stay. Only admin keys get here (see the auth filter). Never a key, only
 * whether one is set.
 */
public final class AdminPluginsService implements HttpService {
    private final CurrentRoutes routes;
    private final PluginReloader reloader;

    public AdminPluginsService(CurrentRoutes routes, PluginReloader reloader) {
        this.routes = routes;
        this.reloader = reloader;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::list)
                .post("/reload", this::reload);
    }

    /**
     * The answer to {@code GET /admin/v1/plugins}.
     *
     * @param generation   the routing generation in force: 1 at start, one more at each reload applied
     * @param priceVersion the version of all the prices in force, which every usage record priced by
     *                     them names
     * @param pricesSince  since when, in Unix seconds, they have been in force: the start, or the
     *                     reload that last changed a price
     */
    @JsonbPropertyOrder({"generation", "priceVersion", "pricesSince", "data"})
    public record PluginList(long generation, String priceVersion, long pricesSince, List<ListedPlugin> data) {
        static PluginList of(RoutingSnapshot snapshot) {
            return new PluginList(snapshot.generation(), snapshot.prices().version(),
                    snapshot.pricesSince().getEpochSecond(), snapshot.table().byPriority().stream()
                    .map(provider -> ListedPlugin.of(provider, snapshot.plugins().jarOf(provider.source())))
                    .toList());
        }
    }

    /**
     * An installed provider, in {@code gateway/auto} order.
     *
     * @param jar     the jar's file name in the plugins folder; null for a plugin found beside the
     *                gateway's classes at start, which {@code source} then names
     * @param version the jar's module version or {@code Implementation-Version}; null when it has none
     * @param keySet  whether an upstream key is configured (the key itself is never shown)
     * @param prices  the provider's price table
     */
    @JsonbPropertyOrder({"jar", "version", "prefix", "priority", "defaultModel", "catchAll", "keySet", "source",
            "prices"})
    public record ListedPlugin(String jar, String version, String prefix, int priority, String defaultModel,
                               boolean catchAll, boolean keySet, String source, ListedPrices prices) {
        static ListedPlugin of(Provider provider, Optional<LoadedJar> jar) {
            return new ListedPlugin(jar.map(loaded -> loaded.jar().name()).orElse(null),
                    jar.flatMap(LoadedJar::version).orElse(null), provider.prefix(), provider.priority(),
                    provider.defaultModel(), provider.catchAll(), provider.hasKey(), provider.source(),
                    ListedPrices.of(provider));
        }
    }

    /**
     * A provider's price table.
     *
     * @param version    12 hex digits of a hash of its prices alone, as a {@link PriceBook} of them has:
     *                   a changed rate of this provider changes it, another provider's does not; null
     *                   when no model of it has a price
     * @param asOf       the day its plugin's catalogue says its prices were taken ({@code prices_as_of});
     *                   null when it does not say
     * @param source     the price page the catalogue names ({@code prices_source}); null when it names none
     * @param models     how many of its models have a price
     * @param configured how many of those prices configuration sets ({@code providers.<name>.models})
     */
    @JsonbPropertyOrder({"version", "asOf", "source", "models", "configured"})
    public record ListedPrices(String version, String asOf, String source, int models, int configured) {
        static ListedPrices of(Provider provider) {
            PriceBook alone = PriceBook.of(Provider.prices(List.of(provider)));
            PriceOrigin origin = provider.priceOrigin();
            return new ListedPrices(alone.size() == 0 ? null : alone.version(),
                    origin.asOf().map(LocalDate::toString).orElse(null), origin.source().orElse(null), alone.size(),
                    origin.configured());
        }
    }

    /**
     * The answer to a reload that was applied.
     *
     * @param added   prefixes of the providers it installed
     * @param removed prefixes of the providers it removed
     * @param changed prefixes of the providers whose declaration, configuration or jar version changed
     * @see PluginList for the price version and since when it is in force
     */
    @JsonbPropertyOrder({"generation", "added", "removed", "changed", "priceVersion", "pricesSince", "data"})
    public record Reloaded(long generation, List<String> added, List<String> removed, List<String> changed,
                           String priceVersion, long pricesSince, List<ListedPlugin> data) {

        /** What changed, in words, as the gateway's log says it. */
        public String changes() {
            return ReloadOutcome.describe(added, removed, changed);
        }
    }

    private void list(ServerRequest request, ServerResponse response) {
        JsonBodies.send(response, Status.OK_200, PluginList.of(routes.current()));
    }

    private void reload(ServerRequest request, ServerResponse response) {
        switch (reloader.reload("POST /admin/v1/plugins/reload")) {
            case ReloadOutcome.Applied applied -> JsonBodies.send(response, Status.OK_200,
                    new Reloaded(applied.snapshot().generation(), applied.added(), applied.removed(),
                            applied.changed(), applied.snapshot().prices().version(),
                            applied.snapshot().pricesSince().getEpochSecond(),
                            PluginList.of(applied.snapshot()).data()));
            case ReloadOutcome.Refused refused -> throw new ApiException(new ApiError(Status.CONFLICT_409,
                    refused.reason() + " The providers of routing generation " + refused.kept().generation()
                            + " stay in force.", "invalid_request_error", null, "plugin_refused"));
        }
    }
}
