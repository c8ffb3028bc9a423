package io.aigw.runtime.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.transport.TransportOptions.Choice;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.util.Map;
import org.junit.jupiter.api.Test;

final class TransportOptionsTest {

    @Test
    void everyWorkaroundIsOnUnlessTurnedOff() {
        assertEquals(new TransportOptions(true, Choice.GATEWAY, Choice.GATEWAY, true), options(Map.of(), Map.of()));
    }

    @Test
    void eachFallsBackToHelidonsPathFromTheFileOrTheEnvironment() {
        assertEquals(new TransportOptions(false, Choice.HELIDON, Choice.HELIDON, false), options(Map.of(
                "gateway.transport.restarting-reader", "false",
                "gateway.transport.protocol-selection", "Helidon"), Map.of(
                "GATEWAY_TRANSPORT_UPSTREAM_POOL", "helidon",
                "GATEWAY_TRANSPORT_CALLER_WATCH", "false")));
    }

    @Test
    void anUnknownChoiceIsRefusedNamingTheKey() {
        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> options(Map.of(),
                Map.of("GATEWAY_TRANSPORT_PROTOCOL_SELECTION", "auto")));

        assertEquals("gateway.transport.protocol-selection must be gateway or helidon, not 'auto'",
                refused.getMessage());
    }

    private static TransportOptions options(Map<String, String> file, Map<String, String> environment) {
        return TransportOptions.from(new Settings(Config.just(ConfigSources.create(file)), environment));
    }
}
