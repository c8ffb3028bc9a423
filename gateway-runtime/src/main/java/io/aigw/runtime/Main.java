package io.aigw.runtime;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.plugin.PluginDiscovery;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.logging.common.LogConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** Starts the gateway: {@code conf/gateway.yaml} (or {@code GATEWAY_CONFIG}) overridden by the environment. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        LogConfig.configureRuntime();
        Settings settings = new Settings(loadConfig(), System.getenv());
        try {
            Gateway gateway = Gateway.start(settings, PluginDiscovery.discover(), Optional.empty());
            gateway.generatedMasterKey().ifPresent(key -> System.out.println("No GATEWAY_MASTER_KEY is set, so this"
                    + " run made a workspace key; it is shown only now:" + System.lineSeparator() + "  " + key));
            System.out.println("Gateway listening on port " + gateway.port());
        } catch (ConfigurationException e) {
            System.err.println("The gateway cannot start: " + e.getMessage());
            System.exit(2);
        }
    }

    private static Config loadConfig() {
        Path file = Path.of(Optional.ofNullable(System.getenv("GATEWAY_CONFIG"))
                .orElse(System.getProperty("gateway.config", "conf/gateway.yaml")));
        Config.Builder builder = Config.builder()
                .disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource();
        if (Files.isRegularFile(file)) {
            builder.addSource(ConfigSources.file(file));
        }
        return builder.build();
    }
}
