package io.aigw.runtime.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.plugin.LoadedJar;
import io.aigw.runtime.testing.PluginJarMaker;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import io.aigw.runtime.testing.TestGateway;
import java.io.IOException;
import java.io.InputStream;
import java.lang.ref.WeakReference;
import java.net.InetAddress;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Predicate;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plugin jars added to, removed from and replaced in the plugins folder of a running gateway: the
 * table is swapped whole, a stream in flight finishes on the plugin it started with, and the old
 * plugin's class loader is collected once that stream has ended.
 */
public final class LivePluginsTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String ANSWER = "{\"object\":\"chat.completion\",\"choices\":[]}";
    private static final String FIRST = "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n";
    private static final String SECOND = "data: {\"choices\":[{\"delta\":{\"content\":\"lo\"}}]}\n\n";
    private static final String DONE = "data: [DONE]\n\n";

    @TempDir
    Path work;
    private Path plugins;
    private ScriptedUpstream widget;
    private MockWebServer openrouter;
    private TestGateway gateway;

    @BeforeEach
    void start() throws IOException {
        plugins = Files.createDirectories(work.resolve("plugins"));
        widget = new ScriptedUpstream();
        openrouter = new MockWebServer();
        openrouter.start(InetAddress.getLoopbackAddress(), 0);
    }

    @AfterEach
    void stop() throws IOException {
        if (gateway != null) {
            gateway.close();
        }
        widget.close();
        openrouter.close();
    }

    @Test
    void aStreamInFlightFinishesOnARemovedPluginWhoseClassLoaderIsCollectedOnceItEnds() throws Exception {
        widgetJar("").writeTo(plugins, "widget.jar");
        startGateway("false");
        CompletableFuture<HttpResponse<InputStream>> response = gateway.client().sendAsync(
                chat("{\"model\":\"widget/widget-1\",\"stream\":true,\"messages\":[]}"),
                HttpResponse.BodyHandlers.ofInputStream());
        Exchange stream = widget.take(WAIT);
        stream.startStream(200, "text/event-stream");
        stream.send(FIRST);
        InputStream events = response.get(WAIT.toSeconds(), TimeUnit.SECONDS).body();
        assertEquals(FIRST, new String(events.readNBytes(FIRST.length()), StandardCharsets.UTF_8));
        WeakReference<ClassLoader> widgetLoader = loaderOf("widget.jar");

        Files.delete(plugins.resolve("widget.jar"));
        HttpResponse<String> reload = reload();

        assertEquals(200, reload.statusCode(), reload.body());
        assertTrue(reload.body().startsWith("{\"generation\":2,\"added\":[],\"removed\":[\"widget\"],\"changed\":[]"),
                reload.body());
        openrouter.enqueue(json(ANSWER));
        HttpResponse<String> next = gateway.chat("{\"model\":\"widget/widget-1\",\"messages\":[]}");
        assertEquals(200, next.statusCode(), next.body());
        assertEquals("openrouter", next.headers().firstValue("X-Gateway-Provider").orElseThrow());
        assertEquals("{\"model\":\"widget/widget-1\",\"messages\":[]}",
                openrouter.takeRequest(WAIT.toSeconds(), TimeUnit.SECONDS).getBody().utf8());
        assertFalse(models().contains("\"widget/"), models());
        collectGarbage(() -> false);
        assertNotNull(widgetLoader.get(), "the stream in flight still holds the plugin it started with");

        stream.send(SECOND);
        stream.send(DONE);
        stream.end();
        assertEquals(SECOND + DONE, new String(events.readAllBytes(), StandardCharsets.UTF_8));
        collectGarbage(() -> widgetLoader.get() == null);
        assertNull(widgetLoader.get(), "the removed plugin's class loader outlived its last stream");
    }

    @Test
    void aHundredReloadsLeaveOnlyTheCurrentClassLoaderOfEachJar() throws Exception {
        widgetJar("").writeTo(plugins, "widget.jar");
        startGateway("false");
        List<WeakReference<ClassLoader>> replaced = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            replaced.add(loaderOf("widget.jar"));
            HttpResponse<String> reload = reload();
            assertEquals(200, reload.statusCode(), reload.body());
            assertTrue(reload.body().startsWith("{\"generation\":" + (i + 2) + ",\"added\":[],\"removed\":[],"
                    + "\"changed\":[]"), reload.body());
        }

        collectGarbage(() -> replaced.stream().allMatch(loader -> loader.get() == null));
        assertEquals(0, replaced.stream().filter(loader -> loader.get() != null).count(),
                "class loaders of replaced generations still reachable");
        assertNotNull(loaderOf("widget.jar").get());
    }

    @Test
    void aJarDroppedInIsLoadedWithoutAReloadAndItsReplacementTakesOverGatewayAuto() throws Exception {
        startGateway("true");
        assertFalse(plugins().contains("widget"));

        widgetJar(".priority(0)").writeTo(plugins, "widget.jar");
        awaitPlugins(list -> list.contains("\"jar\":\"widget.jar\",\"version\":\"1.0\",\"prefix\":\"widget\","
                + "\"priority\":0,\"default_model\":\"widget-1\""));
        widgetJar(".priority(0).defaultModel(\"widget-2\")").implementationVersion("2.0")
                .writeTo(plugins, "widget.jar");
        awaitPlugins(list -> list.contains("\"jar\":\"widget.jar\",\"version\":\"2.0\",\"prefix\":\"widget\","
                + "\"priority\":0,\"default_model\":\"widget-2\""));

        CompletableFuture<HttpResponse<String>> auto = gateway.client().sendAsync(
                chat("{\"model\":\"gateway/auto\",\"messages\":[]}"), HttpResponse.BodyHandlers.ofString());
        Exchange exchange = widget.take(WAIT);
        exchange.startStream(200, "application/json");
        exchange.send(ANSWER);
        exchange.end();
        assertEquals(200, auto.get(WAIT.toSeconds(), TimeUnit.SECONDS).statusCode());
        assertEquals("{\"model\":\"widget-2\",\"messages\":[]}", exchange.body());
        assertEquals("Bearer widget-upstream-key", exchange.header("Authorization"));

        Files.delete(plugins.resolve("widget.jar"));
        awaitPlugins(list -> !list.contains("widget"));
    }

    /** The widget plugin, with a catalogue, of version 1.0 unless told otherwise. */
    private PluginJarMaker widgetJar(String builderCalls) {
        return new PluginJarMaker(work)
                .source("com.example.widget.Plugin", PluginJarMaker.pluginSource("widget", "widget", builderCalls, """
                            @Override
                            public java.util.Optional<java.net.URL> catalogue() {
                                return java.util.Optional.ofNullable(Plugin.class.getResource("models.json"));
                            }
                        """))
                .service("com.example.widget.Plugin")
                .resource("com/example/widget/models.json",
                        "[{\"id\":\"widget-1\",\"name\":\"Widget One\",\"context_length\":32000}]")
                .implementationVersion("1.0");
    }

    private void startGateway(String watch) {
        gateway = TestGateway.start(Map.of("gateway.plugins.dir", plugins.toString(),
                        "gateway.plugins.watch", watch,
                        "gateway.plugins.settle", "100ms",
                        "gateway.access-log", "off",
                        "providers.openrouter.base-url", openrouter.url("/v1").toString()),
                Map.of("WIDGET_API_KEY", "widget-upstream-key", "WIDGET_BASE_URL", widget.baseUrl(),
                        "OPENROUTER_API_KEY", "openrouter-upstream-key"));
    }

    /** The class loader of a loaded jar, held weakly: the test must not keep it alive itself. */
    private WeakReference<ClassLoader> loaderOf(String jar) {
        return new WeakReference<>(gateway.gateway().routes().plugins().jars().stream()
                .filter(loaded -> loaded.jar().name().equals(jar)).map(LoadedJar::loader).findFirst().orElseThrow());
    }

    /** Collects garbage until {@code done}, a few times at most: a collection may leave a loader for the next. */
    private static void collectGarbage(BooleanSupplier done) throws InterruptedException {
        for (int i = 0; i < 20 && !done.getAsBoolean(); i++) {
            System.gc();
            Thread.sleep(50);
        }
    }

    private void awaitPlugins(Predicate<String> listed) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!listed.test(plugins()) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertTrue(listed.test(plugins()), plugins());
    }

    private String plugins() {
        return gateway.send(gateway.request("/admin/v1/plugins").build()).body();
    }

    private String models() {
        return gateway.send(gateway.request("/api/v1/models").build()).body();
    }

    private HttpResponse<String> reload() {
        return gateway.send(gateway.request("/admin/v1/plugins/reload").POST(HttpRequest.BodyPublishers.noBody())
                .build());
    }

    private HttpRequest chat(String body) {
        return gateway.request("/api/v1/chat/completions").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static MockResponse json(String body) {
        return new MockResponse.Builder().addHeader("Content-Type", "application/json").body(body).build();
    }
}
