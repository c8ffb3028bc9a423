package io.aigw.distribution;

import static io.aigw.distribution.GatewayProcess.env;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** bin/gateway's AOT cache on a JDK 25+: only a run that ended well leaves one. */
public final class AotCacheIT {
    private static final String MASTER = "sk-gw-aot-cache-test-0123456789";
    private static final String RAISED_THRESHOLDS = "-XX:CompileThresholdScaling=2";
    /** Under the raised thresholds, the request path's code keeps the JDK's own. */
    private static final List<String> REQUEST_PATH_THRESHOLDS = List.of(
            "-XX:CompileCommand=CompileThresholdScaling,io.aigw.*::*,0.5",
            "-XX:CompileCommand=CompileThresholdScaling,io.helidon.*::*,0.5");
    /** What the JVM says of itself: unified logging's levels, its AOT steps, the options it picked up. */
    private static final Pattern JVM_NOTE = Pattern.compile(
            "\\[(warning|error)\\]|\\[(aot|cds)\\b|AOTCache|AOTConfiguration|JAVA_TOOL_OPTIONS|Picked up");

    @TempDir
    Path work;
    private Path home;

    // Empty, not "off": bin/gateway then uses its default, lib/gateway-jdk-VERSION-FINGERPRINT.aot.
    private final Map<String, String> environment = env("GATEWAY_MASTER_KEY", MASTER, "GATEWAY_AOT_CACHE", "");

    @BeforeEach
    void copyDistribution() throws IOException {
        home = GatewayProcess.copyDistribution(work);
    }

    /** Only a server start records: a cache of what these load would slow every later start. */
    @ParameterizedTest
    @CsvSource({"help, 0", "version, 0", "no-such-command, 2"})
    void commandsOtherThanAServerStartRecordNoCache(String command, int exitCode) throws Exception {
        try (GatewayProcess other = GatewayProcess.run(home, environment, command)) {
            assertEquals(exitCode, other.awaitExit(), other.output());
        }
        assertEquals(List.of(), aotFiles());
    }

    /**
     * A start that fails (its port taken; a plugin jar that conflicts) writes nothing into lib/: not
     * a cache of its few classes, and it does not delete the good cache either, which the next start
     * with the same jars uses again.
     */
    @Test
    void aStartThatFailsLeavesNoCacheBehindAndKeepsTheGoodOne() throws Exception {
        try (ServerSocket taken = new ServerSocket()) {
            taken.bind(new InetSocketAddress("0.0.0.0", 0));
            Map<String, String> portTaken = new HashMap<>(environment);
            portTaken.put("GATEWAY_PORT", Integer.toString(taken.getLocalPort()));
            try (GatewayProcess failed = GatewayProcess.run(home, portTaken)) {
                int exitCode = failed.awaitExit();
                assertEquals(List.of(), aotFiles(), failed.output());
                assertEquals(2, exitCode, failed.output());
            }
        }

        try (GatewayProcess recording = GatewayProcess.start(home, environment)) {
            assertEquals(200, recording.get("/api/v1/models", MASTER).statusCode());
            recording.terminate();
            assertEquals(0, recording.awaitExit(), recording.output());
            Assumptions.assumeTrue(GatewayProcess.javaFeature(home) >= 25,
                    "bin/gateway makes an AOT cache only on a JDK 25 or newer");
        }
        List<Path> caches = aotFiles();
        assertEquals(1, caches.size(), caches.toString());
        Path good = caches.get(0);
        assertTrue(good.getFileName().toString().endsWith(".aot"), good.toString());
        long size = Files.size(good);
        FileTime written = Files.getLastModifiedTime(good);

        Path impostor = PluginJars.install(home, PluginJars.IMPOSTOR_PACKAGE, PluginJars.IMPOSTOR_CLASS,
                "impostor-plugin.jar");
        try (GatewayProcess conflict = GatewayProcess.run(home, environment)) {
            assertNotEquals(0, conflict.awaitExit(), conflict.output());
            assertTrue(conflict.output().contains("Two plugins claim the model prefix 'openai'"), conflict.output());
        }
        assertEquals(List.of(good), aotFiles());
        assertEquals(size, Files.size(good));
        assertEquals(written, Files.getLastModifiedTime(good));

        Files.delete(impostor);
        try (GatewayProcess fromTheCache = GatewayProcess.start(home, environment)) {
            assertEquals(200, fromTheCache.get("/api/v1/models", MASTER).statusCode());
            assertTrue(fromTheCache.arguments().contains(RAISED_THRESHOLDS), fromTheCache.arguments().toString());
            assertTrue(fromTheCache.arguments().containsAll(REQUEST_PATH_THRESHOLDS),
                    fromTheCache.arguments().toString());
            assertTrue(fromTheCache.arguments().contains("-XX:AOTCache=" + good), fromTheCache.arguments().toString());
            fromTheCache.terminate();
            assertEquals(0, fromTheCache.awaitExit(), fromTheCache.output());
        }
        assertEquals(List.of(good), aotFiles());
        assertEquals(written, Files.getLastModifiedTime(good));
    }

    /**
     * A first run records the cache and makes it at its stop without a word from the JVM (which
     * otherwise lists the classes a cache cannot hold, where it wrote what, and the options it gave
     * the JVM that makes the cache); the next start, from that cache, says nothing about it either.
     */
    @Test
    void aFreshDistributionStartsAndStopsWithoutAWordAboutItsAotCache() throws Exception {
        Assumptions.assumeTrue(GatewayProcess.javaFeature(home) >= 25, "an AOT cache needs a JDK 25 or newer");
        try (GatewayProcess first = GatewayProcess.start(home, environment)) {
            assertEquals(200, first.get("/api/v1/models", MASTER).statusCode());
            first.terminate();
            assertEquals(0, first.awaitExit(), first.output());
            assertSaysNothingOfTheJvm(first);
        }
        List<Path> caches = aotFiles();
        assertEquals(1, caches.size(), caches.toString());
        try (GatewayProcess second = GatewayProcess.start(home, environment)) {
            assertTrue(second.arguments().contains("-XX:AOTCache=" + caches.get(0)), second.arguments().toString());
            assertEquals(200, second.get("/api/v1/models", MASTER).statusCode());
            second.terminate();
            assertEquals(0, second.awaitExit(), second.output());
            assertSaysNothingOfTheJvm(second);
        }
        assertEquals(caches, aotFiles());
    }

    /**
     * A cache holds the path of the folder that made it, and the JVM refuses it elsewhere with errors
     * at every start. A distribution copied as it is (cache, database and file times included), as
     * cp -a, tar or a move would, starts without a word, records a cache of its own in place of the
     * one it came with, and then starts from that.
     */
    @Test
    void aCopiedDistributionStartsQuietlyAndMakesACacheOfItsOwn() throws Exception {
        Assumptions.assumeTrue(GatewayProcess.javaFeature(home) >= 25, "an AOT cache needs a JDK 25 or newer");
        try (GatewayProcess recording = GatewayProcess.start(home, environment)) {
            recording.terminate();
            assertEquals(0, recording.awaitExit(), recording.output());
        }
        List<Path> original = aotFiles();
        assertEquals(1, original.size(), original.toString());

        Path copy = work.resolve("elsewhere/gateway");
        copyAsItIs(home, copy);
        try (GatewayProcess first = GatewayProcess.start(copy, environment)) {
            assertEquals(200, first.get("/api/v1/models", MASTER).statusCode());
            first.terminate();
            assertEquals(0, first.awaitExit(), first.output());
            assertSaysNothingOfTheJvm(first);
        }
        List<Path> own;
        try (Stream<Path> files = Files.list(copy.resolve("lib"))) {
            own = files.filter(file -> file.getFileName().toString().contains(".aot")).toList();
        }
        assertEquals(1, own.size(), own.toString());
        assertNotEquals(original.get(0).getFileName(), own.get(0).getFileName());
        try (GatewayProcess second = GatewayProcess.start(copy, environment)) {
            assertTrue(second.arguments().contains("-XX:AOTCache=" + own.get(0)), second.arguments().toString());
            assertEquals(200, second.get("/api/v1/models", MASTER).statusCode());
            second.terminate();
            assertEquals(0, second.awaitExit(), second.output());
            assertSaysNothingOfTheJvm(second);
        }
    }

    /** Nothing on stderr, and no line from the JVM's own logging or about its AOT cache on stdout. */
    private static void assertSaysNothingOfTheJvm(GatewayProcess gateway) {
        assertEquals("", gateway.errors(), gateway.output());
        List<String> jvmLines = gateway.standardOutput().lines()
                .filter(line -> JVM_NOTE.matcher(line).find())
                .toList();
        assertEquals(List.of(), jvmLines, gateway.output());
    }

    /** Every file and folder of {@code from} copied to {@code to} with its times, as cp -a does. */
    private static void copyAsItIs(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path source : files.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(source, target, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    /** The JIT's thresholds go by the cache's training: without a cache, they stay the JDK's. */
    @Test
    void aStartWithoutACacheKeepsTheDefaultCompileThresholds() throws Exception {
        try (GatewayProcess withoutCache = GatewayProcess.start(home, env("GATEWAY_MASTER_KEY", MASTER))) {
            assertFalse(withoutCache.arguments().contains(RAISED_THRESHOLDS), withoutCache.arguments().toString());
            assertTrue(REQUEST_PATH_THRESHOLDS.stream().noneMatch(withoutCache.arguments()::contains),
                    withoutCache.arguments().toString());
        }
    }

    /** Every file in lib/ that an AOT cache, or its recording, left. */
    private List<Path> aotFiles() throws IOException {
        try (Stream<Path> files = Files.list(home.resolve("lib"))) {
            return files.filter(file -> file.getFileName().toString().contains(".aot")).sorted().toList();
        }
    }
}
