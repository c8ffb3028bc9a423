package io.aigw.runtime.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import io.aigw.runtime.testing.TestGateway;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Stopping the gateway lets a stream in flight finish, and its usage record is stored. */
public final class GracefulShutdownTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String CHUNK = "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}],\"usage\":null}\n\n";
    private static final String USAGE = "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":7,"
            + "\"total_tokens\":12}}\n\n";

    @Test
    void aStreamInFlightWhenTheGatewayStopsCompletesAndIsRecorded() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream()) {
            TestGateway gateway = TestGateway.start(Map.of("providers.openai.base-url", upstream.baseUrl(),
                    "gateway.shutdown.grace-period", "10s"), Map.of("OPENAI_API_KEY", "sk-upstream-openai"));
            String database = gateway.databaseUrl();
            int port = gateway.gateway().port();
            CompletableFuture<HttpResponse<String>> response = gateway.client().sendAsync(
                    gateway.request("/api/v1/chat/completions").header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"model\":\"openai/gpt-5\",\"stream\":true,\"messages\":[]}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            Exchange exchange = upstream.take(WAIT);
            exchange.startStream(200, "text/event-stream");
            exchange.send(CHUNK);

            CompletableFuture<Void> stopping = CompletableFuture.runAsync(() -> gateway.gateway().close());
            awaitRefusingConnections(port);
            exchange.send(USAGE + "data: [DONE]\n\n");
            exchange.end();

            assertEquals(CHUNK + "data: [DONE]\n\n", response.get(WAIT.toSeconds(), TimeUnit.SECONDS).body());
            stopping.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            try (Connection connection = DriverManager.getConnection(database);
                 ResultSet rows = connection.createStatement().executeQuery(
                         "SELECT status, total_tokens FROM usage_records")) {
                assertTrue(rows.next(), "the stream's usage record must be written before the gateway exits");
                assertEquals(200, rows.getInt(1));
                assertEquals(12, rows.getLong(2));
            }
            gateway.close();
        }
    }

    /** A stopping gateway takes no new connections, while the stream above still runs. */
    private static void awaitRefusingConnections(int port) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            } catch (ConnectException e) {
                return;
            } catch (IOException e) {
                // Some other hiccup: try again.
            }
            Thread.sleep(50);
        }
        assertThrows(ConnectException.class, () -> new Socket("127.0.0.1", port).close(),
                "the gateway kept accepting connections while stopping");
    }
}
