package io.aigw.runtime.testing;

import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.BiFunction;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A fake upstream and a gateway in front of it, started before each test and closed after it, for
 * a test class that registers one with {@code @RegisterExtension}. The upstream answers for
 * {@code openai} (and the providers {@link #alsoFor} or {@link #forEveryProvider} add), and the
 * gateway holds an upstream key {@code sk-upstream-<provider>} for each, unless
 * {@link #environment} sets another.
 *
 * @param <U> the fake upstream: MockWebServer for canned answers, ScriptedUpstream for step by step
 */
public final class GatewayInFront<U extends AutoCloseable> implements BeforeEachCallback, AfterEachCallback {
    private static final List<String> PROVIDERS = List.of("openai", "gemini", "anthropic", "xai", "openrouter");

    private final Starter<U> starter;
    private final BiFunction<U, String, String> baseUrl;
    private final Map<String, String> config = new HashMap<>();
    private final Map<String, String> environment = new HashMap<>();
    private final Map<String, String> paths = new LinkedHashMap<>(Map.of("openai", "/v1"));
    private boolean accessLogged;
    private Path logFolder;
    private U upstream;
    private TestGateway gateway;

    private GatewayInFront(Starter<U> starter, BiFunction<U, String, String> baseUrl) {
        this.starter = starter;
        this.baseUrl = baseUrl;
    }

    /** A MockWebServer upstream; each provider's base URL is {@code /v1} or, for every provider, {@code /<provider>/v1}. */
    public static GatewayInFront<MockWebServer> mockWebServer() {
        return new GatewayInFront<>(() -> {
            MockWebServer server = new MockWebServer();
            server.start(InetAddress.getLoopbackAddress(), 0);
            return server;
        }, (server, path) -> server.url(path).toString());
    }

    /** A ScriptedUpstream; one base URL serves every provider. */
    public static GatewayInFront<ScriptedUpstream> scripted() {
        return new GatewayInFront<>(ScriptedUpstream::new, (upstream, path) -> upstream.baseUrl());
    }

    /** Adds a configuration key the gateway starts with. */
    public GatewayInFront<U> config(String key, String value) {
        config.put(key, value);
        return this;
    }

    /** Adds an environment variable the gateway starts with, such as another upstream key. */
    public GatewayInFront<U> environment(String name, String value) {
        environment.put(name, value);
        return this;
    }

    /** Points all five providers at the upstream, each under its own path {@code /<provider>/v1}. */
    public GatewayInFront<U> forEveryProvider() {
        PROVIDERS.forEach(provider -> paths.put(provider, "/" + provider + "/v1"));
        return this;
    }

    /** Points {@code provider} too at the upstream's {@code /v1}. */
    public GatewayInFront<U> alsoFor(String provider) {
        paths.put(provider, "/v1");
        return this;
    }

    /** Has the gateway write its access log to a file of its own, {@link #accessLog()}. */
    public GatewayInFront<U> withAccessLog() {
        accessLogged = true;
        return this;
    }

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        if (accessLogged) {
            logFolder = Files.createTempDirectory("gateway-access-log");
            config.put("gateway.access-log", accessLog().toString());
        }
        upstream = starter.start();
        gateway = start(Map.of());
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        try (AutoCloseable closeUpstream = upstream) {
            if (gateway != null) {
                gateway.close();
            }
        } finally {
            if (logFolder != null) {
                TestGateway.deleteRecursively(logFolder);
            }
        }
    }

    /** The access log's file, with {@link #withAccessLog()}. */
    public Path accessLog() {
        return logFolder.resolve("access.log");
    }

    public U upstream() {
        return upstream;
    }

    public TestGateway gateway() {
        return gateway;
    }

    /** Closes the gateway and starts another in front of the same upstream, with {@code extraConfig} added. */
    public TestGateway restart(Map<String, String> extraConfig) {
        gateway.close();
        gateway = null;
        gateway = start(extraConfig);
        return gateway;
    }

    /** Closes the gateway and takes {@code other} in its place, closed after the test. */
    public TestGateway replace(TestGateway other) {
        gateway.close();
        gateway = other;
        return gateway;
    }

    private TestGateway start(Map<String, String> extraConfig) {
        Map<String, String> all = new HashMap<>();
        Map<String, String> keys = new HashMap<>();
        paths.forEach((provider, path) -> {
            all.put("providers." + provider + ".base-url", baseUrl.apply(upstream, path));
            keys.put(provider.toUpperCase(Locale.ROOT) + "_API_KEY", "sk-upstream-" + provider);
        });
        all.putAll(config);
        all.putAll(extraConfig);
        keys.putAll(environment);
        return TestGateway.start(all, keys);
    }

    /** Starts a fake upstream. */
    @FunctionalInterface
    private interface Starter<U> {
        U start() throws Exception;
    }
}
