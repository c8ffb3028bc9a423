package io.aigw.runtime;

import io.aigw.runtime.cli.Command;
import io.aigw.runtime.cli.KeysCommand;
import io.aigw.runtime.cli.PluginsCommand;
import io.aigw.runtime.cli.UpstreamsCommand;
import io.aigw.runtime.cli.Usage;
import io.aigw.runtime.cli.UsageCommand;
import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.ConfigurationMembers;
import io.aigw.runtime.config.DatabaseConfig;
import io.aigw.runtime.config.PluginsConfig;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.plugin.PluginCalls;
import io.aigw.runtime.plugin.PluginDiscovery;
import io.aigw.runtime.plugin.PluginLoader;
import io.aigw.runtime.store.GatewayStore;
import io.aigw.runtime.store.JdbcStore;
import io.aigw.runtime.store.StoreException;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.logging.common.LogConfig;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.logging.Logger;

/** Starts the gateway: {@code conf/gateway.yaml} (or {@code GATEWAY_CONFIG}) overridden by the environment. */
public final class Main {

    private Main() {
    }

    public static void main(String[] args) {
        switch (Command.of(args)) {
            case Command.Help help -> printUsage(System.out);
            case Command.Version version -> Usage.printVersion(System.out);
            case Command.Mistake mistake -> {
                System.err.println("gateway: " + mistake.problem());
                printUsage(System.err);
                System.exit(KeysCommand.USAGE);
            }
            case Command.Keys keys -> System.exit(manageKeys(runtimeSettings(), keys.args()));
            case Command.UsageReport report -> System.exit(reportUsage(runtimeSettings(), report.args()));
            case Command.Plugins plugins -> System.exit(askAboutPlugins(new Settings(loadConfig(), System.getenv()),
                    plugins.args()));
            case Command.Upstreams upstreams -> System.exit(askAboutUpstreams(new Settings(loadConfig(),
                    System.getenv()), upstreams.args()));
            case Command.Migrate migrate -> System.exit(migrate(runtimeSettings()));
            case Command.Serve serve -> serve(runtimeSettings());
        }
    }

    private static Settings runtimeSettings() {
        // First: the JDK reads it when the first virtual thread is made.
        CarrierThreads.configure();
        LogConfig.configureRuntime();
        return Settings.rereadable(Main::loadConfig, System.getenv());
    }

    private static void serve(Settings settings) {
        OldGenerationWatch.start();
        try {
            Gateway gateway = Gateway.start(settings, PluginDiscovery.discover(), Optional.empty());
            GracefulStop.install(gateway::close);
            gateway.generatedMasterKey().ifPresent(key -> System.out.println("No GATEWAY_MASTER_KEY is set and the"
                    + " key store was empty, so this first start made an admin key; it is shown only now:"
                    + System.lineSeparator() + "  " + key));
            System.out.println("Gateway listening on port " + gateway.port());
        } catch (ConfigurationException | StoreException e) {
            System.err.println("The gateway cannot start: " + e.getMessage());
            System.exit(2);
        }
    }

    /**
     * The usage, with the key variables of the plugins installed. Plugins that cannot be loaded are
     * left out: whatever is wrong with them, the start says so.
     */
    private static void printUsage(PrintStream out) {
        Settings settings = new Settings(loadConfig(), System.getenv());
        try {
            PluginsConfig config = PluginsConfig.read(settings);
            try (PluginLoader loader = new PluginLoader(PluginDiscovery.discover(), config.folder(),
                    new PluginCalls(config.callTimeout()))) {
                Usage.print(out, loader.load().all());
            }
        } catch (ConfigurationException e) {
            Usage.print(out, List.of());
        }
    }

    /**
     * {@code gateway plugins ...}: asks the running gateway, at {@code GATEWAY_URL} or else this
     * machine's configured port, with {@code GATEWAY_ADMIN_KEY} or else the configured master key.
     */
    private static int askAboutPlugins(Settings settings, List<String> args) {
        return runningGateway(settings, "plugins").map(url -> new PluginsCommand(url, adminKey(settings), System.out,
                System.err).run(args)).orElse(PluginsCommand.USAGE);
    }

    /** {@code gateway upstreams ...}: asks the running gateway, found as {@link #askAboutPlugins} finds it. */
    private static int askAboutUpstreams(Settings settings, List<String> args) {
        return runningGateway(settings, "upstreams").map(url -> new UpstreamsCommand(url, adminKey(settings),
                System.out, System.err).run(args)).orElse(PluginsCommand.USAGE);
    }

    /** {@code GATEWAY_URL}, else this machine at the configured port; empty, said on stderr, when unusable. */
    private static Optional<URI> runningGateway(Settings settings, String command) {
        try {
            return Optional.of(URI.create(settings.environment("GATEWAY_URL").orElseGet(() -> "http://127.0.0.1:"
                    + settings.getInt("gateway.port", 8080))));
        } catch (ConfigurationException | IllegalArgumentException e) {
            System.err.println("gateway " + command + ": GATEWAY_URL or gateway.port is not usable: " + e.getMessage());
            return Optional.empty();
        }
    }

    private static Optional<String> adminKey(Settings settings) {
        return settings.environment("GATEWAY_ADMIN_KEY").or(() -> settings.get("gateway.master-key"));
    }

    /** {@code gateway keys ...}: works on the store directly, with only warnings logged. */
    private static int manageKeys(Settings settings, List<String> args) {
        Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        try (GatewayStore store = JdbcStore.open(database(settings))) {
            return new KeysCommand(store, System.out, System.err).run(args);
        } catch (StoreException e) {
            System.err.println("gateway keys: " + e.getMessage());
            return KeysCommand.STORE_FAILED;
        } catch (ConfigurationException e) {
            System.err.println("gateway keys: " + e.getMessage());
            return KeysCommand.USAGE;
        }
    }

    /** {@code gateway usage ...}: reads the store directly, with only warnings logged. */
    private static int reportUsage(Settings settings, List<String> args) {
        Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        try (GatewayStore store = JdbcStore.open(database(settings))) {
            return new UsageCommand(store, Clock.systemUTC(), System.out, System.err).run(args);
        } catch (StoreException e) {
            System.err.println("gateway usage: " + e.getMessage());
            return UsageCommand.STORE_FAILED;
        } catch (ConfigurationException e) {
            System.err.println("gateway usage: " + e.getMessage());
            return UsageCommand.USAGE;
        }
    }

    /**
     * {@code gateway migrate}: brings the store's schema up to date, as every start does first, and
     * exits. For a deployment that migrates before it starts its replicas, and for bin/gateway before
     * the start that records the AOT cache: that start then finds nothing to migrate, so Flyway (and
     * the Jackson it brings), needed only when a migration is due, stays out of the cache whose
     * every class each later start loads.
     */
    private static int migrate(Settings settings) {
        Logger.getLogger("").setLevel(java.util.logging.Level.WARNING);
        try {
            JdbcStore.open(database(settings)).close();
            return 0;
        } catch (ConfigurationException | StoreException e) {
            System.err.println("gateway migrate: " + e.getMessage());
            return 2;
        }
    }

    /** The store's settings, for a command that opens it: never from a file with a misspelt key. */
    private static DatabaseConfig database(Settings settings) {
        ConfigurationMembers.requireKnown(settings);
        return DatabaseConfig.read(settings);
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
