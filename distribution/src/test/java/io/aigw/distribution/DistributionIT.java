package io.aigw.distribution;

import static io.aigw.distribution.GatewayProcess.env;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.MalformedURLException;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarFile;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The unpacked distribution, started the way a user starts it: the real bin/gateway, the runtime on
 * the module path and each plugin jar in a module layer of its own.
 */
public final class DistributionIT {
    /** The versions of the runtime's schema migrations (store/V1__ to V8__), all applied to a new database. */
    private static final List<String> EVERY_MIGRATION = List.of("1", "2", "3", "4", "5", "6", "7", "8", "9");

    private static final String MASTER = "sk-gw-distribution-test-0123456789";

    @TempDir
    Path work;
    private Path home;

    /**
     * Each test gets its own copy: its own plugins/ to change and its own data/. It sits under a
     * folder whose name has a space, as "Program Files" or a user's "My Tools" would.
     */
    @BeforeEach
    void copyDistribution() throws IOException {
        home = GatewayProcess.copyDistribution(work.resolve("unpacked here"));
    }

    @Test
    void itStartsWithNoUpstreamKeysAndServesTheModelsWithThePrintedKey() throws Exception {
        try (GatewayProcess gateway = GatewayProcess.start(home, env("GATEWAY_HTTP2", "true"))) {
            String key = gateway.lineAfter("it is shown only now:");

            HttpResponse<String> models = gateway.get("/api/v1/models", key);
            assertEquals(200, models.statusCode(), gateway.output());
            assertTrue(models.body().startsWith("{\"object\":\"list\",\"data\":[{\"id\":\"gateway/auto\",\"object\":\"model\","),
                    models.body());
            // The JDK's client asks for h2c, and GATEWAY_HTTP2 lets the server take it up.
            assertEquals(HttpClient.Version.HTTP_2, models.version());
            for (String id : List.of("openai/gpt-5", "gemini/gemini-2.5-pro", "anthropic/claude-haiku-4-5",
                    "xai/grok-4", "openrouter/auto")) {
                assertTrue(models.body().contains("\"id\":\"" + id + "\""), id);
            }
            assertEquals(401, gateway.get("/api/v1/models", null).statusCode());
            assertEquals(200, gateway.get("/observe/health/ready", null).statusCode());
            assertTrue(gateway.output().contains("xai          yes    no         4         grok-4"), gateway.output());
        }
    }

    /**
     * With tracing on, the runtime on the module path finds the OTLP exporter's JDK HTTP sender and
     * posts the request's span, in the caller's trace, to the collector.
     */
    @Test
    void withTracingOnTheSpansOfARequestReachAnOtlpCollector() throws Exception {
        BlockingQueue<byte[]> exports = new LinkedBlockingQueue<>();
        HttpServer collector = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        collector.createContext("/v1/traces", exchange -> {
            if ("application/x-protobuf".equals(exchange.getRequestHeaders().getFirst("Content-Type"))) {
                exports.add(exchange.getRequestBody().readAllBytes());
            }
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        collector.start();
        String traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
        try (GatewayProcess gateway = GatewayProcess.start(home, env("GATEWAY_MASTER_KEY", MASTER,
                "OTEL_SDK_DISABLED", "false", "OTEL_BSP_SCHEDULE_DELAY", "100",
                "OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:" + collector.getAddress().getPort()))) {
            HttpResponse<String> models = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                            URI.create("http://127.0.0.1:" + gateway.port() + "/api/v1/models"))
                    .header("Authorization", "Bearer " + MASTER)
                    .header("traceparent", "00-" + traceId + "-00f067aa0ba902b7-01").build(),
                    HttpResponse.BodyHandlers.ofString());

            assertEquals(200, models.statusCode(), gateway.output());
            assertTrue(models.headers().firstValue("traceparent").orElseThrow().startsWith("00-" + traceId + "-"));
            byte[] export = exports.poll(20, TimeUnit.SECONDS);
            assertNotEquals(null, export, gateway.output());
            assertTrue(new String(export, StandardCharsets.ISO_8859_1).contains(new String(
                    HexFormat.of().parseHex(traceId), StandardCharsets.ISO_8859_1)), "the span's trace id");
        } finally {
            collector.stop(0);
        }
    }

    @Test
    void deletingAPluginJarRemovesThatProviderFromTheCatalogueAndTheAutoChain() throws Exception {
        try (FakeUpstream xai = new FakeUpstream()) {
            var environment = env("GATEWAY_MASTER_KEY", MASTER, "XAI_API_KEY", "xai-upstream-key",
                    "XAI_BASE_URL", xai.baseUrl());
            try (GatewayProcess gateway = GatewayProcess.start(home, environment)) {
                HttpResponse<String> auto = gateway.chat(MASTER, "{\"model\":\"gateway/auto\",\"messages\":[]}");
                assertEquals(200, auto.statusCode(), auto.body());
                assertEquals("xai", auto.headers().firstValue("X-Gateway-Provider").orElseThrow());
                assertEquals("{\"model\":\"grok-4\",\"messages\":[]}", xai.bodies().get(0));
            }

            Files.delete(home.resolve("plugins/gateway-plugin-xai.jar"));
            try (GatewayProcess gateway = GatewayProcess.start(home, environment)) {
                assertFalse(gateway.get("/api/v1/models", MASTER).body().contains("xai/"));
                HttpResponse<String> auto = gateway.chat(MASTER, "{\"model\":\"gateway/auto\",\"messages\":[]}");
                assertEquals(502, auto.statusCode(), auto.body());
                assertEquals(1, xai.bodies().size(), "without its jar, xai must not be called");
                assertFalse(gateway.output().contains("xai          yes"), gateway.output());
            }
        }
    }

    @Test
    void aThirdPartyPluginJarDroppedIntoPluginsIsRoutedTo() throws Exception {
        jarPlugin("io/aigw/distribution/thirdparty/widget", "io.aigw.distribution.thirdparty.widget.WidgetPlugin",
                "widget-plugin.jar");
        try (FakeUpstream widget = new FakeUpstream();
             GatewayProcess gateway = GatewayProcess.start(home, env("GATEWAY_MASTER_KEY", MASTER,
                     "WIDGET_API_KEY", "widget-upstream-key", "WIDGET_BASE_URL", widget.baseUrl()))) {
            String widgetModel = "\\{\"id\":\"widget/widget-1\",\"object\":\"model\",\"created\":\\d+,"
                    + "\"owned_by\":\"widget\",\"name\":\"Widget One\",\"context_length\":32000,\"kind\":\"chat\"}";
            String models = gateway.get("/api/v1/models", MASTER).body();
            assertTrue(Pattern.compile(widgetModel).matcher(models).find(), models);
            // The SDKs' models.retrieve, with the id's slash as written and as they encode it.
            for (String path : List.of("/api/v1/models/widget/widget-1", "/api/v1/models/widget%2Fwidget-1")) {
                HttpResponse<String> retrieved = gateway.get(path, MASTER);
                assertEquals(200, retrieved.statusCode(), retrieved.body());
                assertTrue(retrieved.body().matches(widgetModel), retrieved.body());
            }

            HttpResponse<String> response = gateway.chat(MASTER, "{\"model\":\"widget/widget-1\",\"messages\":[]}");

            assertEquals(200, response.statusCode(), response.body() + gateway.output());
            assertEquals("{\"model\":\"widget-1\",\"messages\":[]}", widget.bodies().get(0));
            assertEquals("Bearer widget-upstream-key", widget.authorizations().get(0));
        }
    }

    @Test
    void aSecondCatchAllRefusesToStartNamingBothJars() throws Exception {
        jarPlugin("io/aigw/distribution/thirdparty/everything",
                "io.aigw.distribution.thirdparty.everything.EverythingPlugin", "everything-plugin.jar");
        try (GatewayProcess gateway = GatewayProcess.run(home, env("GATEWAY_MASTER_KEY", MASTER))) {
            assertNotEquals(0, gateway.awaitExit());
            String output = gateway.output();
            assertTrue(output.contains("The gateway cannot start: Two plugins claim to be the catch-all provider:"),
                    output);
            assertTrue(output.contains("gateway-plugin-openrouter.jar") && output.contains("everything-plugin.jar"),
                    output);
        }
    }

    @Test
    void aThirdPartyPluginClaimingAnInstalledPrefixRefusesToStartNamingBothJars() throws Exception {
        jarPlugin("io/aigw/distribution/thirdparty/impostor",
                "io.aigw.distribution.thirdparty.impostor.ImpostorPlugin", "impostor-plugin.jar");
        try (GatewayProcess gateway = GatewayProcess.run(home, env("GATEWAY_MASTER_KEY", MASTER))) {
            assertNotEquals(0, gateway.awaitExit());
            String output = gateway.output();
            assertTrue(output.contains("The gateway cannot start: Two plugins claim the model prefix 'openai':"),
                    output);
            assertTrue(output.contains("gateway-plugin-openai.jar") && output.contains("impostor-plugin.jar"),
                    output);
            assertFalse(output.contains("Gateway listening"), output);
        }
    }

    /**
     * A copy of an installed plugin jar carries the same module name: the gateway, not the JVM, says
     * so, naming both jars, and does not start.
     */
    @Test
    void aCopiedPluginJarStopsTheStartNamingBothJars() throws Exception {
        Files.copy(home.resolve("plugins/gateway-plugin-openai.jar"), home.resolve("plugins/openai-copy.jar"));
        try (GatewayProcess gateway = GatewayProcess.run(home, env("GATEWAY_MASTER_KEY", MASTER))) {
            assertEquals(2, gateway.awaitExit(), gateway.output());
            assertEquals("The gateway cannot start: The plugin jars gateway-plugin-openai.jar and openai-copy.jar"
                    + " both hold the module io.aigw.plugin.openai (versions " + System.getProperty("gateway.version")
                    + " and " + System.getProperty("gateway.version") + "): a plugin is installed once; remove one of"
                    + " them.", gateway.errors());
            assertFalse(gateway.output().contains("Gateway listening"), gateway.output());
            assertFalse(gateway.output().contains("Exception"), gateway.output());
        }
    }

    /** A jar with a package another plugin holds is refused by name, where the JVM would refuse the module path. */
    @Test
    void aPluginJarSharingAPackageWithAnotherStopsTheStartNamingBoth() throws Exception {
        PluginJars.withoutModuleDeclaration(home.resolve("plugins/gateway-plugin-openai.jar"), home.resolve("plugins"),
                "openai-fork.jar", "io.aigw.plugin.openai.OpenAiPlugin");
        try (GatewayProcess gateway = GatewayProcess.run(home, env("GATEWAY_MASTER_KEY", MASTER))) {
            assertEquals(2, gateway.awaitExit(), gateway.output());
            assertEquals("The gateway cannot start: The plugin jars gateway-plugin-openai.jar and openai-fork.jar both"
                    + " hold the package io.aigw.plugin.openai: a package belongs to one plugin. Give each plugin a"
                    + " package of its own, or remove one of the jars.", gateway.errors());
        }
    }

    @Test
    void theKeysCommandPrintsANewKeyThatTheServerAccepts() throws Exception {
        try (GatewayProcess create = GatewayProcess.run(home, env("GATEWAY_MASTER_KEY", MASTER),
                "keys", "create", "--name", "ci-app")) {
            assertEquals(0, create.awaitExit(), create.output());
            String key = create.output().lines().filter(line -> line.startsWith("sk-gw-")).findFirst().orElseThrow();
            assertTrue(key.matches("sk-gw-[A-Za-z0-9_-]{43}"), create.output());
            try (GatewayProcess gateway = GatewayProcess.start(home, env("GATEWAY_MASTER_KEY", MASTER))) {
                assertEquals(200, gateway.get("/api/v1/models", key).statusCode());
            }
        }
    }

    @Test
    void aKeysRpmIsCountedInRedisOnTheModulePath() throws Exception {
        requireRedis();
        String prefix = "aigw-test-dist:" + System.nanoTime() + ":";
        Map<String, String> environment = env("GATEWAY_MASTER_KEY", MASTER, "GATEWAY_REDIS_URL",
                "redis://127.0.0.1:6379", "GATEWAY_LIMITS_REDIS_PREFIX", prefix);
        try (GatewayProcess create = GatewayProcess.run(home, environment, "keys", "create", "--name", "limited",
                "--rpm", "1")) {
            assertEquals(0, create.awaitExit(), create.output());
            String key = create.output().lines().filter(line -> line.startsWith("sk-gw-")).findFirst().orElseThrow();
            try (GatewayProcess gateway = GatewayProcess.start(home, environment)) {
                String body = "{\"model\":\"openai/gpt-5\",\"messages\":[],\"max_tokens\":5}";
                // No upstream key: the call is refused with 400 and gives its request back, so it can be asked again.
                HttpResponse<String> failed = gateway.post("/api/v1/chat/completions", key, body);
                assertEquals(400, failed.statusCode(), failed.body() + gateway.output());
                assertEquals("0", failed.headers().firstValue("x-ratelimit-remaining-requests").orElseThrow(),
                        gateway.output());
                assertEquals(400, gateway.post("/api/v1/chat/completions", key, body).statusCode(),
                        "released, not refused by the rpm: " + gateway.output());
            }
            Process scan = new ProcessBuilder("redis-cli", "--scan", "--pattern", prefix + "*").start();
            String counted = new String(scan.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertEquals(0, scan.waitFor());
            assertTrue(counted.strip().matches(Pattern.quote(prefix) + "key_[0-9a-f]{16}"),
                    "the key's window is in Redis: " + counted);
        }
    }

    /** Redis on 127.0.0.1:6379, which .ci/run starts: skipped on a laptop without it, failed in CI. */
    private static void requireRedis() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", 6379), 2000);
        } catch (IOException e) {
            String reason = "Redis is not reachable at 127.0.0.1:6379: " + e.getMessage();
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                Assertions.fail(reason + " (CI=true, where .ci/run starts it)");
            }
            Assumptions.abort(reason);
        }
    }

    @Test
    void theAdminApiReadsAndWritesItsJsonBodiesOnTheModulePath() throws Exception {
        try (GatewayProcess gateway = GatewayProcess.start(home, env("GATEWAY_MASTER_KEY", MASTER))) {
            HttpResponse<String> created = gateway.post("/admin/v1/keys", MASTER,
                    "{\"name\":\"ops\",\"team\":[1],\"admin\":true,\"models\":[\"openai/*\"],\"rpm\":60,"
                    + "\"budget_usd\":20.50,\"budget_period\":\"month\"}");
            assertEquals(201, created.statusCode(), created.body() + gateway.output());
            assertTrue(created.body().matches("\\{\"id\":\"key_[0-9a-f]{16}\",\"name\":\"ops\","
                    + "\"key\":\"sk-gw-[A-Za-z0-9_-]{43}\",\"admin\":true,\"created_at\":\\d+,"
                    + "\"models\":\\[\"openai/\\*\"],\"expires_at\":null,\"rpm\":60,\"tpm\":null,"
                    + "\"budget_usd\":20.5,\"budget_period\":\"month\"}"), created.body());

            HttpResponse<String> listed = gateway.get("/admin/v1/keys", MASTER);
            assertEquals(200, listed.statusCode(), listed.body());
            assertTrue(listed.body().matches("\\{\"data\":\\[\\{\"id\":\"key_[0-9a-f]{16}\",\"name\":\"ops\","
                    + "\"admin\":true,\"created_at\":\\d+,\"revoked_at\":null,\"models\":\\[\"openai/\\*\"],"
                    + "\"expires_at\":null,\"rpm\":60,\"tpm\":null,\"budget_usd\":20.5,\"budget_period\":\"month\","
                    + "\"spent_usd\":0,\"remaining_usd\":20.5}]}"), listed.body());

            HttpResponse<String> wrong = gateway.post("/admin/v1/keys", MASTER, "{\"name\":42}");
            assertEquals(400, wrong.statusCode(), wrong.body());
            assertTrue(wrong.body().contains("\"param\":\"name\""), wrong.body());

            HttpResponse<String> usage = gateway.get("/admin/v1/usage?from=0&to=60", MASTER);
            assertTrue(usage.body().startsWith("{\"from\":\"1970-01-01\",\"to\":\"1970-01-01\",\"group_by\":[\"key\"]")
                    && usage.body().endsWith("\"data\":[]}"), usage.body());
        }
    }

    @Test
    void onSigtermAStreamInFlightFinishesItsUsageIsStoredAndTheExitCodeIsZero() throws Exception {
        String upstreamKey = "sk-proj-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1Qq0Pp9Oo8Nn7Mm6";
        try (FakeUpstream openai = new FakeUpstream();
             GatewayProcess gateway = GatewayProcess.start(home, env("GATEWAY_MASTER_KEY", MASTER,
                     "OPENAI_API_KEY", upstreamKey, "OPENAI_BASE_URL", openai.baseUrl()))) {
            CompletableFuture<HttpResponse<String>> stream = HttpClient.newHttpClient().sendAsync(
                    HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/api/v1/chat/completions"))
                            .header("Authorization", "Bearer " + MASTER).header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"openai/gpt-5\",\"stream\":true,"
                                    + "\"messages\":[{\"role\":\"user\",\"content\":\"a secret prompt\"}]}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertTrue(openai.awaitStreamStarted(), gateway.output());

            gateway.terminate();
            awaitRefusing(gateway.port());
            openai.releaseStream();

            HttpResponse<String> response = stream.get(30, TimeUnit.SECONDS);
            assertEquals(FakeUpstream.FIRST_EVENT + "data: [DONE]\n\n", response.body());
            assertEquals(0, gateway.awaitExit(), gateway.output());
            try (Connection database = DriverManager.getConnection("jdbc:sqlite:" + home.resolve("data/gateway.db"));
                 ResultSet rows = database.createStatement().executeQuery(
                         "SELECT requested_model, status, total_tokens FROM usage_records")) {
                assertTrue(rows.next(), "the stream's usage record must be stored before exit");
                assertEquals("openai/gpt-5", rows.getString(1));
                assertEquals(200, rows.getInt(2));
                assertEquals(8, rows.getLong(3));
            }
            String logs = gateway.output();
            assertTrue(logs.contains("\"request_id\":") && logs.contains("\"total_tokens\":8"), logs);
            for (String secret : List.of(MASTER, upstreamKey, "a secret prompt", "Hi\"")) {
                assertFalse(logs.contains(secret), "the gateway's output shows '" + secret + "':\n" + logs);
            }
        }
    }

    /** The cache at its default place, lib/ of a distribution whose path has a space. */
    @Test
    void onAJdk25TheFirstRunWritesAnAotCacheThatLaterRunsStartFrom() throws Exception {
        // Empty, not "off": bin/gateway then uses its default, lib/gateway-jdk-VERSION-FINGERPRINT.aot.
        var environment = env("GATEWAY_MASTER_KEY", MASTER, "GATEWAY_AOT_CACHE", "");
        try (GatewayProcess first = GatewayProcess.start(home, environment)) {
            assertEquals(200, first.get("/api/v1/models", MASTER).statusCode());
            first.terminate();
            assertEquals(0, first.awaitExit(), first.output());
            if (GatewayProcess.javaFeature(home) < 25) {
                // bin/gateway uses an AOT cache only on a JDK 25 or newer.
                assertEquals(List.of(), aotCaches(), first.output());
                return;
            }
        }
        List<Path> caches = aotCaches();
        assertEquals(1, caches.size(), caches.toString());
        assertTrue(Files.size(caches.get(0)) > 0);
        try (GatewayProcess second = GatewayProcess.start(home, environment)) {
            assertEquals(200, second.get("/api/v1/models", MASTER).statusCode());
            assertFalse(second.output().toLowerCase().contains("error"), second.output());
            // Nothing from the JVM about the cache: a start from it is an ordinary start.
            assertFalse(second.output().contains("[warning]"), second.output());
        }
    }

    /**
     * {@code migrate} makes or updates the schema and exits, leaving the AOT cache to the first server
     * start; a database it cannot reach gives exit 2 and why.
     */
    @Test
    void theMigrateCommandBringsTheSchemaUpToDateAndSaysWhenItCannot() throws Exception {
        try (GatewayProcess migrate = GatewayProcess.run(home, env("GATEWAY_AOT_CACHE", ""), "migrate")) {
            assertEquals(0, migrate.awaitExit(), migrate.output());
        }
        assertEquals(EVERY_MIGRATION, appliedMigrations(home.resolve("data/gateway.db")));
        assertEquals(List.of(), aotCaches());

        var unreachable = env("GATEWAY_DATABASE_URL", "jdbc:postgresql://127.0.0.1:1/gateway");
        try (GatewayProcess migrate = GatewayProcess.run(home, unreachable, "migrate")) {
            assertEquals(2, migrate.awaitExit(), migrate.output());
            assertTrue(migrate.output().contains("gateway migrate: Cannot open the database"), migrate.output());
        }
    }

    /** The keys command uses a fraction of what a server start does, so it leaves the recording to the server. */
    @Test
    void theKeysCommandLeavesTheAotCacheToTheFirstServerStart() throws Exception {
        var environment = env("GATEWAY_MASTER_KEY", MASTER, "GATEWAY_AOT_CACHE", "");
        try (GatewayProcess keys = GatewayProcess.run(home, environment, "keys", "create", "--name", "ci-app")) {
            assertEquals(0, keys.awaitExit(), keys.output());
            assertEquals(List.of(), aotCaches(), keys.output());
        }
    }

    /**
     * The first start, on a new database, records the AOT cache; bin/gateway migrates the database
     * before it in a JVM of its own, so the cache has no Flyway and no Jackson in it (a start loads
     * every class of its cache). A start from that cache on another new database still migrates it,
     * with Flyway from its jars.
     */
    @Test
    void theRunThatRecordsTheAotCacheLeavesFlywayOutOfItAndANewDatabaseIsStillMigrated() throws Exception {
        var withTheCache = env("GATEWAY_MASTER_KEY", MASTER, "GATEWAY_AOT_CACHE", "");
        try (GatewayProcess recording = GatewayProcess.start(home, withTheCache)) {
            assertEquals(200, recording.get("/api/v1/models", MASTER).statusCode());
            recording.terminate();
            assertEquals(0, recording.awaitExit(), recording.output());
            Assumptions.assumeTrue(GatewayProcess.javaFeature(home) >= 25,
                    "bin/gateway makes an AOT cache only on a JDK 25 or newer");
        }
        assertEquals(EVERY_MIGRATION, appliedMigrations(home.resolve("data/gateway.db")));

        Path classes = work.resolve("classes.log");
        // Added to bin/gateway's own options by the JVM itself: a log of where each class came from.
        withTheCache.put("JAVA_TOOL_OPTIONS", "-Xlog:class+load=info:file=" + classes);
        try (GatewayProcess restart = GatewayProcess.start(home, withTheCache)) {
            assertEquals(200, restart.get("/api/v1/models", MASTER).statusCode());
        }
        List<String> flywayOrJackson = Files.readString(classes).lines()
                .filter(line -> line.contains(" org.flywaydb.core.Flyway ") || line.contains(" com.fasterxml.jackson."))
                .limit(3)
                .toList();
        assertEquals(List.of(), flywayOrJackson);

        Path newDatabase = work.resolve("new.db");
        withTheCache.put("GATEWAY_DATABASE_URL", "jdbc:sqlite:" + newDatabase);
        try (GatewayProcess onANewDatabase = GatewayProcess.start(home, withTheCache)) {
            assertEquals(200, onANewDatabase.get("/api/v1/models", MASTER).statusCode());
        }
        assertEquals(EVERY_MIGRATION, appliedMigrations(newDatabase));
        assertTrue(Files.readString(classes).contains(" org.flywaydb.core.Flyway source: "),
                "Flyway migrated the new database");
    }

    private static List<String> appliedMigrations(Path sqliteFile) throws Exception {
        try (Connection database = DriverManager.getConnection("jdbc:sqlite:" + sqliteFile);
             ResultSet rows = database.createStatement().executeQuery(
                     "SELECT version FROM flyway_schema_history WHERE success ORDER BY installed_rank")) {
            List<String> versions = new ArrayList<>();
            while (rows.next()) {
                versions.add(rows.getString(1));
            }
            return versions;
        }
    }

    /**
     * bin/gateway points sqlite-jdbc at lib/native/sqlite, so it copies nothing into the temp folder
     * (left to itself, it copies its library there at every start). Without that folder, it does so
     * again, and the gateway works all the same.
     */
    @Test
    void sqliteLoadsItsNativeLibraryFromLibNativeInsteadOfCopyingItIntoTheTempFolder() throws Exception {
        String os = System.getProperty("os.name");
        Assumptions.assumeTrue((os.startsWith("Linux") || os.startsWith("Mac"))
                && List.of("amd64", "x86_64", "aarch64").contains(System.getProperty("os.arch")),
                "lib/native/sqlite has no library for " + os + " on " + System.getProperty("os.arch"));
        Path temp = Files.createDirectories(work.resolve("temp"));
        var environment = env("GATEWAY_MASTER_KEY", MASTER, "GATEWAY_JAVA_OPTS", "-Djava.io.tmpdir=" + temp);
        try (GatewayProcess gateway = GatewayProcess.start(home, environment)) {
            assertEquals(200, gateway.get("/api/v1/models", MASTER).statusCode(), gateway.output());
            assertEquals(List.of(), sqliteCopies(temp), gateway.output());
        }

        deleteRecursively(home.resolve("lib/native"));
        try (GatewayProcess gateway = GatewayProcess.start(home, environment)) {
            assertEquals(200, gateway.get("/api/v1/models", MASTER).statusCode(), gateway.output());
            assertEquals(1, sqliteCopies(temp).size(), gateway.output());
        }
    }

    /**
     * Where the JVM may use one processor, the gateway runs its virtual threads on two carriers (with
     * one, a new connection could wait seconds behind busy ones); an operator's own setting stays.
     */
    @Test
    void onOneProcessorTheVirtualThreadsGetTwoCarriersUnlessTheOperatorSetsIt() throws Exception {
        var oneProcessor = env("GATEWAY_MASTER_KEY", MASTER, "GATEWAY_JAVA_OPTS", "-XX:ActiveProcessorCount=1");
        try (GatewayProcess gateway = GatewayProcess.start(home, oneProcessor)) {
            assertEquals(200, gateway.get("/api/v1/models", MASTER).statusCode(), gateway.output());
            String properties = gateway.systemProperties();
            assertTrue(properties.contains("jdk.virtualThreadScheduler.parallelism=2"), properties);
        }
        var operatorsChoice = env("GATEWAY_MASTER_KEY", MASTER, "GATEWAY_JAVA_OPTS",
                "-XX:ActiveProcessorCount=1 -Djdk.virtualThreadScheduler.parallelism=1");
        try (GatewayProcess gateway = GatewayProcess.start(home, operatorsChoice)) {
            assertEquals(200, gateway.get("/api/v1/models", MASTER).statusCode(), gateway.output());
            String properties = gateway.systemProperties();
            assertTrue(properties.contains("jdk.virtualThreadScheduler.parallelism=1"), properties);
        }
    }

    /**
     * bin/gateway keeps methods it names out of the JIT's inlining, and caps the scratch memory of
     * a class's compilations, because those compilations were the process's peak RSS (and the
     * nodes of two that never fitted the cap, so that C2 gives them up at once); it has
     * Helidon's connection loop compiled early, because an interpreted loop made every park of a
     * connection's thread slow, and a new connection's setup, which otherwise stayed interpreted.
     * Each named method and class is in the runtime (a rename in a Helidon or gateway upgrade would
     * otherwise turn the option off without a word), the shipped JVM gets the option (the caps from
     * JDK 22 on), and the JVM does not echo it on stdout, where the access log goes. The loop's and
     * the setup's options stay when the operator's own JVM options replace the shipped ones.
     */
    @Test
    void theMethodsTheLauncherNamesToTheJitAreInTheRuntimeAndTheJvmDoesNotEchoThem() throws Exception {
        String launcher = Files.readString(home.resolve("bin/gateway"));
        // A class name may end in *, for the classes nested in it too; a package's name in .*, for its classes.
        var named = Pattern.compile("(dontinline|MemLimit|MaxNodeLimit|CompileThresholdScaling),"
                + "([\\w.$]+?)(\\.\\*|\\*)?::(\\w+|\\*)(,[\\d.]+)?").matcher(launcher);
        Map<String, Integer> sinceJdk = new HashMap<>();
        List<Path> jarFiles;
        try (Stream<Path> jars = Files.list(home.resolve("lib"))) {
            jarFiles = jars.filter(jar -> jar.toString().endsWith(".jar")).toList();
        }
        try (URLClassLoader runtime = new URLClassLoader(jarFiles.stream().map(DistributionIT::url).toArray(URL[]::new),
                ClassLoader.getPlatformClassLoader())) {
            while (named.find()) {
                if (".*".equals(named.group(3))) {
                    // The request path's thresholds under the AOT cache (AotCacheIT): a package of the runtime.
                    assertTrue(hasPackage(jarFiles, named.group(2)), named.group() + ": no such package");
                    continue;
                }
                String method = named.group(4);
                Class<?> type = Class.forName(named.group(2), false, runtime);
                assertTrue(method.equals("*") || Stream.of(type.getDeclaredMethods())
                        .anyMatch(declared -> declared.getName().equals(method)), named.group() + ": no such method");
                boolean capped = named.group(1).equals("MemLimit") || named.group(1).equals("MaxNodeLimit");
                sinceJdk.put("-XX:CompileCommand=" + named.group(), capped ? 22 : 21);
            }
        }
        assertEquals(Set.of(21, 22), Set.copyOf(sinceJdk.values()), launcher);

        try (GatewayProcess gateway = GatewayProcess.start(home, env("GATEWAY_MASTER_KEY", MASTER))) {
            assertEquals(200, gateway.get("/api/v1/models", MASTER).statusCode(), gateway.output());
            var specification = Pattern.compile("java\\.specification\\.version=(\\d+)").matcher(gateway.systemProperties());
            assertTrue(specification.find());
            int jdk = Integer.parseInt(specification.group(1));
            String commandLine = gateway.jdkTool("jcmd", "VM.command_line");
            sinceJdk.forEach((option, since) -> assertEquals(jdk >= since, commandLine.contains(option), option
                    + " on JDK " + jdk + ": " + commandLine));
            assertFalse(gateway.output().contains("CompileCommand"), gateway.output());
        }

        // An operator's own options replace the heap's and the inlining's, not the connection loop's or
        // the connection setup's.
        var operatorsOptions = env("GATEWAY_MASTER_KEY", MASTER, "GATEWAY_JAVA_OPTS", "-Xmx256m");
        try (GatewayProcess gateway = GatewayProcess.start(home, operatorsOptions)) {
            assertEquals(200, gateway.get("/api/v1/models", MASTER).statusCode(), gateway.output());
            String commandLine = gateway.jdkTool("jcmd", "VM.command_line");
            sinceJdk.keySet().forEach(option -> assertEquals(keptWithOperatorsOptions(option),
                    commandLine.contains(option), option + ": " + commandLine));
            assertFalse(gateway.output().contains("CompileCommand"), gateway.output());
        }
    }

    /** The connection loop's options and the thresholds of code run once a connection, not the heap's or inlining's. */
    private static boolean keptWithOperatorsOptions(String option) {
        return option.contains("Http1Connection") || option.contains("CompileThresholdScaling");
    }

    /** Whether a class of {@code name} or of a package below it is in one of {@code jars}. */
    private static boolean hasPackage(List<Path> jars, String name) throws IOException {
        String prefix = name.replace('.', '/') + "/";
        for (Path jar : jars) {
            try (JarFile file = new JarFile(jar.toFile())) {
                if (file.stream().anyMatch(entry -> entry.getName().startsWith(prefix)
                        && entry.getName().endsWith(".class"))) {
                    return true;
                }
            }
        }
        return false;
    }

    private static URL url(Path jar) {
        try {
            return jar.toUri().toURL();
        } catch (MalformedURLException e) {
            throw new IllegalArgumentException(jar.toString(), e);
        }
    }

    private static List<Path> sqliteCopies(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.filter(file -> file.getFileName().toString().matches("sqlite-.*sqlitejdbc\\.(so|dylib)"))
                    .toList();
        }
    }

    private static void deleteRecursively(Path folder) throws IOException {
        try (Stream<Path> paths = Files.walk(folder)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    private List<Path> aotCaches() throws IOException {
        try (Stream<Path> files = Files.list(home.resolve("lib"))) {
            return files.filter(file -> file.getFileName().toString().matches("gateway-jdk-.*\\.aot")).toList();
        }
    }

    private void jarPlugin(String packagePath, String className, String jarName) throws Exception {
        PluginJars.install(home, packagePath, className, jarName);
    }

    /** Waits until the gateway's listener is closed, the first step of its stop, while its streams go on. */
    private static void awaitRefusing(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            try (Socket probe = new Socket("127.0.0.1", port)) {
                Thread.sleep(20);
            } catch (IOException refused) {
                return;
            }
        }
        throw new AssertionError("the gateway still takes connections 10 s after SIGTERM");
    }
}
