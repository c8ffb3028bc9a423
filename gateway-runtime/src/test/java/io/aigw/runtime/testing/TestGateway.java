package io.aigw.runtime.testing;

import io.aigw.runtime.Gateway;
import io.aigw.runtime.config.Settings;
import io.aigw.runtime.plugin.DiscoveredPlugin;
import io.aigw.runtime.plugin.PluginDiscovery;
import io.helidon.common.tls.Tls;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A gateway started in-process on a free loopback port, with a known master key, for tests that
 * talk to it over real HTTP. Settings are given as flat configuration keys
 * ({@code providers.openai.base-url}) and environment variables ({@code OPENAI_API_KEY}).
 */
public final class TestGateway implements AutoCloseable {
    public static final String KEY = "sk-gw-test-key-0123456789abcdef";

    private final Gateway gateway;
    private final Path dataFolder;
    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private TestGateway(Gateway gateway, Path dataFolder) {
        this.gateway = gateway;
        this.dataFolder = dataFolder;
    }

    /** Starts a gateway with the plugins on the test class path. */
    public static TestGateway start(Map<String, String> config, Map<String, String> environment) {
        return start(config, environment, PluginDiscovery.discover(), Optional.empty());
    }

    public static TestGateway start(Map<String, String> config, Map<String, String> environment,
                                    List<DiscoveredPlugin> plugins, Optional<Tls> upstreamTls) {
        Path dataFolder = createTempFolder();
        Map<String, String> all = new HashMap<>(Map.of(
                "gateway.host", "127.0.0.1",
                "gateway.port", "0",
                "gateway.master-key", KEY,
                "gateway.database.url", "jdbc:sqlite:" + dataFolder.resolve("gateway.db")));
        all.putAll(config);
        Settings settings = new Settings(Config.just(ConfigSources.create(all)), environment);
        try {
            return new TestGateway(Gateway.start(settings, plugins, upstreamTls), dataFolder);
        } catch (RuntimeException e) {
            // Tests that expect a refusal to start leave no temporary folder behind.
            deleteRecursively(dataFolder);
            throw e;
        }
    }

    /**
     * Starts a gateway whose configuration is the YAML {@code file} over the flat {@code config},
     * read again at each reload, as a gateway started by {@code bin/gateway} reads its file.
     */
    public static TestGateway startWithFile(Path file, Map<String, String> config, Map<String, String> environment) {
        Path dataFolder = createTempFolder();
        Map<String, String> all = new HashMap<>(Map.of(
                "gateway.host", "127.0.0.1",
                "gateway.port", "0",
                "gateway.master-key", KEY,
                "gateway.database.url", "jdbc:sqlite:" + dataFolder.resolve("gateway.db")));
        all.putAll(config);
        Settings settings = Settings.rereadable(() -> Config.builder().disableEnvironmentVariablesSource()
                .disableSystemPropertiesSource().addSource(ConfigSources.file(file))
                .addSource(ConfigSources.create(all)).build(), environment);
        try {
            return new TestGateway(Gateway.start(settings, PluginDiscovery.discover(), Optional.empty()), dataFolder);
        } catch (RuntimeException e) {
            deleteRecursively(dataFolder);
            throw e;
        }
    }

    /** The JDBC URL of this gateway's own SQLite file, to read what it stored. */
    public String databaseUrl() {
        return "jdbc:sqlite:" + dataFolder.resolve("gateway.db");
    }

    public Gateway gateway() {
        return gateway;
    }

    public URI uri(String path) {
        return URI.create("http://127.0.0.1:" + gateway.port() + path);
    }

    /** A request builder for {@code path} that carries the master key. */
    public HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(uri(path)).header("Authorization", "Bearer " + KEY);
    }

    /** POSTs a JSON body to the chat completions endpoint with the master key. */
    public HttpResponse<String> chat(String body) {
        return send(request("/api/v1/chat/completions")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
    }

    public HttpResponse<String> send(HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public HttpClient client() {
        return client;
    }

    @Override
    public void close() {
        gateway.close();
        deleteRecursively(dataFolder);
    }

    private static Path createTempFolder() {
        try {
            return Files.createTempDirectory("aigw-test-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void deleteRecursively(Path folder) {
        if (!Files.exists(folder)) {
            return;
        }
        try (var paths = Files.walk(folder)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
