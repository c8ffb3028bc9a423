package io.aigw.runtime.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.testing.TestGateway;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.JMException;
import javax.management.ObjectName;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gateway.transport.upstream-pool}: the gateway's own pool of upstream connections, or
 * Helidon's connection cache, which watches each connection it gets back with a thread of its own.
 * What holds for both is in {@code ConnectionReuseTest}.
 */
public final class UpstreamPoolTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String ANSWER = "{\"object\":\"chat.completion\",\"model\":\"gpt-5\"}";
    private static final String CHAT = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    /** The name Helidon gives the thread that watches an idle connection of its cache. */
    private static final String WATCH_THREAD = "\"helidon-socket-monitor-";

    @TempDir
    Path threadDumps;

    @Test
    void helidonsCacheWatchesEachConnectionItGetsBackWithAThreadWhereTheGatewaysPoolHasNone() throws Exception {
        awaitWatchThreads(0);
        try (MockWebServer upstream = startMockUpstream(); TestGateway gateway = startGateway(upstream, "gateway")) {
            upstream.enqueue(new MockResponse.Builder().body(ANSWER).build());

            assertEquals(ANSWER, gateway.chat(CHAT).body());
            assertEquals(0, watchThreads(), "the gateway's pool keeps its idle connection without a thread");
        }
        try (MockWebServer upstream = startMockUpstream(); TestGateway gateway = startGateway(upstream, "helidon")) {
            upstream.enqueue(new MockResponse.Builder().body(ANSWER).build());
            upstream.enqueue(new MockResponse.Builder().body(ANSWER).build());

            assertEquals(ANSWER, gateway.chat(CHAT).body());
            // Helidon gets the connection back before the gateway answers, and the watch goes on as
            // long as the socket's read timeout, which for this path is minutes.
            assertEquals(1, watchThreads(), "Helidon's cache no longer watches a connection it gets back with a"
                    + " thread: gateway.transport.upstream-pool's workaround may go (see the package doc)");
            assertEquals(ANSWER, gateway.chat(CHAT).body());
            upstream.takeRequest(5, TimeUnit.SECONDS);
            assertEquals(0, upstream.takeRequest(5, TimeUnit.SECONDS).getConnectionIndex(),
                    "the watched connection is reused");
        }
    }

    @Test
    void anUnknownPoolIsRefusedNamingTheChoices() {
        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> TestGateway.start(
                Map.of("gateway.transport.upstream-pool", "okhttp"), Map.of()));

        assertEquals("gateway.transport.upstream-pool must be gateway or helidon, not 'okhttp'", refused.getMessage());
    }

    /** Waits until as many threads of Helidon's watch idle connections (those of earlier tests end when their sockets close). */
    private void awaitWatchThreads(int count) throws IOException, InterruptedException, JMException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (watchThreads() != count) {
            assertTrue(System.nanoTime() < deadline, "Helidon's watches of idle connections did not end");
            Thread.sleep(20);
        }
    }

    /** How many threads of Helidon's watch an idle connection, from a thread dump. */
    private int watchThreads() throws IOException, JMException {
        Path file = threadDumps.resolve("threads-" + System.nanoTime() + ".json");
        // The JDK's JSON thread dump lists virtual threads too, which Helidon's watches are.
        ManagementFactory.getPlatformMBeanServer().invoke(new ObjectName("com.sun.management:type=HotSpotDiagnostic"),
                "dumpThreads", new Object[] {file.toString(), "JSON"},
                new String[] {String.class.getName(), String.class.getName()});
        String dump = Files.readString(file);
        int count = 0;
        for (int at = dump.indexOf(WATCH_THREAD); at >= 0; at = dump.indexOf(WATCH_THREAD, at + 1)) {
            count++;
        }
        return count;
    }

    private static MockWebServer startMockUpstream() throws IOException {
        MockWebServer upstream = new MockWebServer();
        upstream.start(InetAddress.getLoopbackAddress(), 0);
        return upstream;
    }

    private static TestGateway startGateway(MockWebServer upstream, String pool) {
        return TestGateway.start(Map.of("providers.openai.base-url", upstream.url("/v1").toString(),
                        "gateway.transport.upstream-pool", pool),
                Map.of("OPENAI_API_KEY", "sk-upstream-openai"));
    }
}
