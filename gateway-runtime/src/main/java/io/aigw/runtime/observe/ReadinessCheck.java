package io.aigw.runtime.observe;

import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.StoreHealth;
import io.helidon.health.HealthCheck;
import io.helidon.health.HealthCheckResponse;
import io.helidon.health.HealthCheckType;
import java.util.function.IntSupplier;

/**
 * Ready when providers are installed and the store serves; a load balancer sends traffic elsewhere
 * otherwise. The store's health is the one it last saw, so a readiness probe never waits on a
 * database that does not answer; when down, the details say why ({@code store_fault}) and since
 * when ({@code store_down_since}, unix seconds).
 */
public final class ReadinessCheck implements HealthCheck {
    /** How many providers the routing in force has: plugins may come and go while the gateway runs. */
    private final IntSupplier providers;
    private final GatewayStore store;

    public ReadinessCheck(IntSupplier providers, GatewayStore store) {
        this.providers = providers;
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
        int providers = this.providers.getAsInt();
        HealthCheckResponse.Builder response = HealthCheckResponse.builder().detail("providers", providers);
        boolean storeUp = switch (store.health()) {
            case StoreHealth.Up up -> true;
            case StoreHealth.Down down -> {
                response.detail("store_fault", down.fault());
                response.detail("store_down_since", down.since().getEpochSecond());
                yield false;
            }
        };
        response.detail("store", storeUp ? "up" : "down");
        return response.status(storeUp && providers > 0).build();
    }
}
