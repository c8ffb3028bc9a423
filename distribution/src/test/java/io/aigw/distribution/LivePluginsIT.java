package io.aigw.distribution;

import static io.aigw.distribution.GatewayProcess.env;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Plugin jars removed from, put back into, replaced in and dropped into the plugins/ folder of one
 * running bin/gateway, while callers keep sending requests: each change takes effect without a
 * restart, a stream in flight finishes on the plugin it started with, and a jar the gateway cannot
 * load changes nothing.
 */
public final class LivePluginsIT {
    private static final String MASTER = "sk-gw-live-plugins-test-0123456789";

    @TempDir
    Path work;

    @Test
    void pluginsComeAndGoWhileTheGatewayRunsAndTrafficNeverStops() throws Exception {
        Path home = GatewayProcess.copyDistribution(work);
        Path plugins = home.resolve("plugins");
        Files.write(plugins.resolve("acme-plugin.jar"), acme("acme-1", "1.0"));
        try (FakeUpstream openai = new FakeUpstream(); FakeUpstream xai = new FakeUpstream();
             FakeUpstream openrouter = new FakeUpstream(); FakeUpstream acme = new FakeUpstream();
             GatewayProcess gateway = GatewayProcess.start(home, env("GATEWAY_MASTER_KEY", MASTER,
                     "GATEWAY_PLUGINS_SETTLE", "300ms",
                     "OPENAI_API_KEY", "openai-upstream-key", "OPENAI_BASE_URL", openai.baseUrl(),
                     "XAI_API_KEY", "xai-upstream-key", "XAI_BASE_URL", xai.baseUrl(),
                     "OPENROUTER_API_KEY", "openrouter-upstream-key", "OPENROUTER_BASE_URL", openrouter.baseUrl(),
                     "ACME_API_KEY", "acme-upstream-key", "ACME_BASE_URL", acme.baseUrl()));
             Traffic traffic = Traffic.start(gateway, MASTER, "{\"model\":\"openai/gpt-5\",\"messages\":[]}")) {
            assertEquals("acme", auto(gateway).headers().firstValue("X-Gateway-Provider").orElseThrow());
            assertEquals("{\"model\":\"acme-1\",\"messages\":[]}", last(acme));

            // A stream flows through xai while its jar is taken away.
            CompletableFuture<HttpResponse<String>> stream = HttpClient.newHttpClient().sendAsync(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/api/v1/chat/completions"))
                            .header("Authorization", "Bearer " + MASTER).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"model\":\"xai/grok-4\",\"stream\":true,\"messages\":[]}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(xai.awaitStreamStarted(), gateway.output());
            Path xaiJar = Files.move(plugins.resolve("gateway-plugin-xai.jar"), work.resolve("gateway-plugin-xai.jar"));
            await(gateway, () -> !plugins(gateway).contains("\"prefix\":\"xai\""), "xai unloaded");
            assertFalse(gateway.output().contains("Routing generation 1 is released"),
                    "the stream in flight still holds the routing it started with:\n" + gateway.output());

            xai.releaseStream();
            assertEquals(FakeUpstream.FIRST_EVENT + "data: [DONE]\n\n", stream.get(30, TimeUnit.SECONDS).body());
            await(gateway, () -> gateway.output().contains("Routing generation 1 is released"),
                    "the routing of the stream released once the stream ended");
            HttpResponse<String> catchAll = gateway.chat(MASTER, "{\"model\":\"xai/grok-4\",\"messages\":[]}");
            assertEquals(200, catchAll.statusCode(), catchAll.body());
            assertEquals("openrouter", catchAll.headers().firstValue("X-Gateway-Provider").orElseThrow());
            assertEquals("{\"model\":\"xai/grok-4\",\"messages\":[]}", last(openrouter));
            String models = gateway.get("/api/v1/models", MASTER).body();
            assertFalse(models.contains("\"id\":\"xai/"), models);

            // Put back, xai routes again.
            Files.copy(xaiJar, plugins.resolve("gateway-plugin-xai.jar"));
            await(gateway, () -> plugins(gateway).contains("\"prefix\":\"xai\""), "xai loaded again");
            HttpResponse<String> direct = gateway.chat(MASTER, "{\"model\":\"xai/grok-4\",\"messages\":[]}");
            assertEquals("xai", direct.headers().firstValue("X-Gateway-Provider").orElseThrow(), direct.body());
            assertEquals("{\"model\":\"grok-4\",\"messages\":[]}", last(xai));
            assertTrue(gateway.get("/api/v1/models", MASTER).body().contains("\"id\":\"xai/grok-4\""));

            // acme's new version, written in two steps: half a jar is refused and acme 1.0 serves on.
            byte[] version2 = acme("acme-2", "2.0");
            Files.write(plugins.resolve("acme-plugin.jar"), Arrays.copyOf(version2, version2.length / 2));
            await(gateway, () -> gateway.output().contains("The plugin jar acme-plugin.jar is not a complete jar"),
                    "the half-written jar refused");
            assertEquals("{\"model\":\"acme-1\",\"messages\":[]}", lastAfter(auto(gateway), acme));
            Files.write(plugins.resolve("acme-plugin.jar"), version2);
            await(gateway, () -> plugins(gateway).contains("\"jar\":\"acme-plugin.jar\",\"version\":\"2.0\","
                    + "\"prefix\":\"acme\",\"priority\":0,\"default_model\":\"acme-2\""), "acme 2.0 loaded");
            assertEquals("{\"model\":\"acme-2\",\"messages\":[]}", lastAfter(auto(gateway), acme));

            // A jar claiming openai's prefix is refused; the providers in force stay.
            String before = plugins(gateway);
            Path impostor = PluginJars.install(home, PluginJars.IMPOSTOR_PACKAGE, PluginJars.IMPOSTOR_CLASS,
                    "impostor-plugin.jar");
            await(gateway, () -> gateway.output().contains("refused; routing generation")
                    && gateway.output().contains("and impostor-plugin.jar"), "the impostor refused");
            assertEquals(before, plugins(gateway));
            try (GatewayProcess cli = cli(home, gateway, "reload")) {
                assertEquals(1, cli.awaitExit(), cli.output());
                assertTrue(cli.errors().startsWith("gateway plugins: reload refused: Two plugins claim the model"
                        + " prefix 'openai': gateway-plugin-openai.jar (io.aigw.plugin.openai.OpenAiPlugin) and"
                        + " impostor-plugin.jar"), cli.errors());
            }
            Files.delete(impostor);
            try (GatewayProcess cli = cli(home, gateway, "reload")) {
                assertEquals(0, cli.awaitExit(), cli.output());
                assertTrue(cli.standardOutput().startsWith("Reloaded: routing generation "), cli.output());
                assertTrue(cli.standardOutput().lines().anyMatch(line -> line.matches(
                        "acme-plugin\\.jar +2\\.0 +acme +0 +acme-2 +no +set")), cli.output());
            }
            HttpResponse<String> openAi = gateway.chat(MASTER, "{\"model\":\"openai/gpt-5\",\"messages\":[]}");
            assertEquals("openai", openAi.headers().firstValue("X-Gateway-Provider").orElseThrow());

            List<Integer> statuses = traffic.stop();
            assertTrue(statuses.size() > 10, "too little traffic to tell: " + statuses);
            assertEquals(List.of(200), statuses.stream().distinct().toList(), gateway.output());
            assertTrue(gateway.isAlive());
            assertEquals(1, gateway.output().split("Gateway listening on port", -1).length - 1, gateway.output());
        }
    }

    /** The acme test plugin's jar, declaring {@code defaultModel}, of {@code version}. */
    private static byte[] acme(String defaultModel, String version) throws Exception {
        return PluginJars.jar(PluginJars.ACME_PACKAGE, PluginJars.ACME_CLASS,
                Map.of("acme.properties", "default-model=" + defaultModel + "\n"), version);
    }

    private static HttpResponse<String> auto(GatewayProcess gateway) throws Exception {
        HttpResponse<String> response = gateway.chat(MASTER, "{\"model\":\"gateway/auto\",\"messages\":[]}");
        assertEquals(200, response.statusCode(), response.body());
        return response;
    }

    private static String lastAfter(HttpResponse<String> answered, FakeUpstream upstream) {
        assertEquals("acme", answered.headers().firstValue("X-Gateway-Provider").orElseThrow());
        return last(upstream);
    }

    private static String last(FakeUpstream upstream) {
        return upstream.bodies().getLast();
    }

    private static String plugins(GatewayProcess gateway) throws Exception {
        HttpResponse<String> list = gateway.get("/admin/v1/plugins", MASTER);
        assertEquals(200, list.statusCode(), list.body());
        return list.body();
    }

    /** {@code bin/gateway plugins <command>}, pointed at the running gateway by GATEWAY_URL and GATEWAY_ADMIN_KEY. */
    private static GatewayProcess cli(Path home, GatewayProcess gateway, String command) throws Exception {
        return GatewayProcess.run(home, env("GATEWAY_URL", "http://127.0.0.1:" + gateway.port(),
                "GATEWAY_ADMIN_KEY", MASTER), "plugins", command);
    }

    /** Waits for what the watcher does on its own, a change in plugins/ having settled. */
    static void await(GatewayProcess gateway, Check done, String what) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!done.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not seen: " + what + "\n" + gateway.output());
            }
            Thread.sleep(100);
        }
    }

    /** A condition on the running gateway. */
    @FunctionalInterface
    interface Check {
        boolean holds() throws Exception;
    }
}
