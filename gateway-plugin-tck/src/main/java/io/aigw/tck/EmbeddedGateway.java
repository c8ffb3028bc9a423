package io.aigw.tck;

import io.aigw.runtime.Gateway;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.plugin.DiscoveredPlugin;
import io.aigw.spi.ProviderPlugin;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A real gateway in this JVM on a free loopback port, serving one plugin whose upstream is
 * configured to a given URL and key. The TCK's one contact with the runtime's own classes: when
 * the runtime changes how a gateway is started, this class alone follows.
 */
final class EmbeddedGateway implements AutoCloseable {
    private final Gateway gateway;
    private final Path dataFolder;

    private EmbeddedGateway(Gateway gateway, Path dataFolder) {
        this.gateway = gateway;
        this.dataFolder = dataFolder;
    }

    /**
     * Starts a gateway with {@code plugin} as its only provider, configured under
     * {@code providers.<prefix>} as an operator would; no environment variable is read, so the
     * machine's own vendor keys never reach a test.
     */
    static EmbeddedGateway start(ProviderPlugin plugin, String prefix, URI upstreamBaseUrl, String upstreamKey,
                                 String masterKey) {
        Path dataFolder = createDataFolder();
        Map<String, String> settings = Map.of(
                "gateway.host", "127.0.0.1",
                "gateway.port", "0",
                "gateway.master-key", masterKey,
                "gateway.access-log", "off",
                "gateway.database.url", "jdbc:sqlite:" + dataFolder.resolve("gateway.db"),
                "providers." + prefix + ".base-url", upstreamBaseUrl.toString(),
                "providers." + prefix + ".api-key", upstreamKey);
        try {
            Gateway gateway = Gateway.start(new Settings(Config.just(ConfigSources.create(settings)), Map.of()),
                    List.of(DiscoveredPlugin.of(plugin)), Optional.empty());
            return new EmbeddedGateway(gateway, dataFolder);
        } catch (RuntimeException e) {
            deleteRecursively(dataFolder);
            throw e;
        }
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + gateway.port() + path);
    }

    @Override
    public void close() {
        gateway.close();
        deleteRecursively(dataFolder);
    }

    private static Path createDataFolder() {
        try {
            return Files.createTempDirectory("aigw-tck-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteRecursively(Path folder) {
        try (Stream<Path> paths = Files.walk(folder)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
