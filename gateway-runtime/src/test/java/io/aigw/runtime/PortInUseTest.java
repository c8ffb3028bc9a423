package io.aigw.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.plugin.PluginDiscovery;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A port another process holds stops the start at once with the port and its setting named, before
 * the database is opened (where the first start would make an admin key the user never sees).
 */
public final class PortInUseTest {
    @TempDir
    Path folder;

    @ParameterizedTest
    @CsvSource({"gateway.port, GATEWAY_PORT", "gateway.observe.port, GATEWAY_OBSERVE_PORT"})
    void aTakenPortIsRefusedNamingItsSetting(String setting, String variable) throws Exception {
        try (ServerSocket taken = listen()) {
            ConfigurationException refused = assertThrows(ConfigurationException.class,
                    () -> start(Map.of(setting, Integer.toString(taken.getLocalPort()))));
            assertEquals("port " + taken.getLocalPort() + " is in use (" + setting + " / " + variable + "): stop"
                    + " what listens there, or choose another port.", refused.getMessage());
        }
        assertFalse(Files.exists(folder.resolve("gateway.db")), "the database was opened");
    }

    @Test
    void aHostNameThatDoesNotResolveIsRefusedNamingIt() {
        ConfigurationException refused = assertThrows(ConfigurationException.class,
                () -> start(Map.of("gateway.host", "no-such-host.invalid", "gateway.port", "8080")));
        assertEquals("gateway.host 'no-such-host.invalid' is not a known host name.", refused.getMessage());
    }

    private static ServerSocket listen() throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        return socket;
    }

    private Gateway start(Map<String, String> config) {
        Map<String, String> all = new HashMap<>(Map.of("gateway.host", "127.0.0.1", "gateway.port", "0",
                "gateway.database.url", "jdbc:sqlite:" + folder.resolve("gateway.db")));
        all.putAll(config);
        return Gateway.start(new Settings(Config.just(ConfigSources.create(all)), Map.of()),
                PluginDiscovery.discover(), Optional.empty());
    }
}
