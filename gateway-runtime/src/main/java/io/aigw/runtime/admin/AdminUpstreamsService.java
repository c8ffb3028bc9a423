package io.aigw.runtime.admin;

import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.pool.KeyPools;
import io.aigw.runtime.routing.CurrentRoutes;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRules;
import io.helidon.webserver.http.HttpService;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * {@code GET /admin/v1/upstreams}: each provider's upstream keys as the gateway sees them now, in
 * {@code gateway/auto} order: name, weight, state, calls in flight, the last error. Never a key.
 * Only admin keys get here (see the auth filter).
 */
public final class AdminUpstreamsService implements HttpService {
    private final CurrentRoutes routes;
    private final KeyPools pools;

    public AdminUpstreamsService(CurrentRoutes routes, KeyPools pools) {
        this.routes = routes;
        this.pools = pools;
    }

    @Override
    public void routing(HttpRules rules) {
        rules.get("/", this::list);
    }

    /** The answer to {@code GET /admin/v1/upstreams}. */
    public record UpstreamList(List<ListedProvider> data) {
    }

    /** A provider and its keys, in their configured order. */
    @JsonbPropertyOrder({"provider", "keys"})
    public record ListedProvider(String provider, List<ListedKey> keys) {
    }

    /**
     * One upstream key.
     *
     * @param state       {@code healthy}, {@code cooling} (after a 429), {@code failed} (refused with
     *                    401/403), {@code ejected} (failed again and again) or {@code probation} (its
     *                    interval over, one call probes it)
     * @param until       when a cooling, failed or ejected state ends (ISO-8601), else null
     * @param inFlight    calls made with it now
     * @param lastError   what went wrong with it last, in a few words, or null
     * @param lastErrorAt when (ISO-8601), or null
     */
    @JsonbPropertyOrder({"name", "weight", "state", "until", "inFlight", "lastError", "lastErrorAt"})
    public record ListedKey(String name, int weight, String state, String until, int inFlight, String lastError,
                            String lastErrorAt) {
    }

    private void list(ServerRequest request, ServerResponse response) {
        List<ListedProvider> providers = routes.current().table().byPriority().stream()
                .filter(Provider::hasKey)
                .map(provider -> new ListedProvider(provider.prefix(), pools.report(provider).stream()
                        .map(key -> new ListedKey(key.name(), key.weight(), key.state().name().toLowerCase(Locale.ROOT),
                                instant(key.until()), key.inFlight(), key.lastError().orElse(null),
                                instant(key.lastErrorAt())))
                        .toList()))
                .toList();
        JsonBodies.send(response, Status.OK_200, new UpstreamList(providers));
    }

    private static String instant(Optional<Long> epochMillis) {
        return epochMillis.map(millis -> Instant.ofEpochMilli(millis).toString()).orElse(null);
    }
}
