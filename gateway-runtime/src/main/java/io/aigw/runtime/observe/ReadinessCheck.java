package io.aigw.runtime.observe;

import io.aigw.runtime.routing.RoutingTable;
import io.aigw.runtime.store.GatewayStore;
import io.helidon.health.HealthCheck;
import io.helidon.health.HealthCheckResponse;
import io.helidon.health.HealthCheckType;

/** Ready when providers are installed and the store answers; a load balancer sends traffic elsewhere otherwise. */
public final class ReadinessCheck implements HealthCheck {
    private final RoutingTable routing;
    private final GatewayStore store;

    public ReadinessCheck(RoutingTable routing, GatewayStore store) {
        this.routing = routing;
        this.store = store;
    }

    @Override
    public HealthCheckType type() {
        return HealthCheckType.READINESS;
    }

    @Override
    public String name() {
        return "gateway";
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponse.Builder response = HealthCheckResponse.builder()
                .detail("providers", routing.byPriority().size());
        boolean storeUp;
        try {
            store.ping();
            storeUp = true;
        } catch (RuntimeException e) {
            storeUp = false;
        }
        response.detail("store", storeUp ? "up" : "down");
        return response.status(storeUp && !routing.byPriority().isEmpty()).build();
    }
}
