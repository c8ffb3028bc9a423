package io.aigw.runtime.observe;

import io.aigw.runtime.plugin.WatcherStatus;
import io.helidon.health.HealthCheck;
import io.helidon.health.HealthCheckResponse;
import io.helidon.health.HealthCheckType;

/**
 * Whether the plugins folder is watched as configured: {@code watcher} is {@code watching},
 * {@code off} (with {@code watcher_off} saying why) or {@code stopped}. A watcher that stopped while
 * the gateway runs makes the gateway not live: jars changed in the folder would never be loaded by
 * themselves again, and a restart is what starts a watcher anew; until then a reload asked for by
 * hand still loads them. The details say what stopped it ({@code watcher_fault}) and when
 * ({@code watcher_stopped_since}, unix seconds).
 */
public final class PluginWatcherCheck implements HealthCheck {
    private final WatcherStatus status;

    public PluginWatcherCheck(WatcherStatus status) {
        this.status = status;
    }

    @Override
    public HealthCheckType type() {
        return HealthCheckType.LIVENESS;
    }

    @Override
    public String name() {
        return "plugins";
    }

    @Override
    public HealthCheckResponse call() {
        HealthCheckResponse.Builder response = HealthCheckResponse.builder();
        boolean up = switch (status.state()) {
            case WatcherStatus.State.Watching watching -> {
                response.detail("watcher", "watching");
                yield true;
            }
            case WatcherStatus.State.Off off -> {
                response.detail("watcher", "off");
                response.detail("watcher_off", off.why());
                yield true;
            }
            case WatcherStatus.State.Stopped stopped -> {
                response.detail("watcher", "stopped");
                response.detail("watcher_fault", stopped.fault());
                response.detail("watcher_stopped_since", stopped.since().getEpochSecond());
                yield false;
            }
        };
        return response.status(up).build();
    }
}
