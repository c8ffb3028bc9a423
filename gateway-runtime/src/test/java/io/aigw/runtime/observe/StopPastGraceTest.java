package io.aigw.runtime.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.RawCaller;
import io.aigw.runtime.testing.RawCaller.Answer;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import io.aigw.runtime.testing.TestGateway;
import java.net.Socket;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A request still waiting on its upstream when the grace period of a stop runs out gets 503 and
 * {@code Connection: close}, which a client retries elsewhere, not a 502 that blames the upstream;
 * a stream then ends with an error event, not a silent close.
 */
final class StopPastGraceTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String CHUNK = "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}]}\n\n";

    @Test
    void aRequestWaitingOnItsUpstreamPastTheGracePeriodGets503AndConnectionClose() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream()) {
            TestGateway gateway = TestGateway.start(Map.of("providers.openai.base-url", upstream.baseUrl(),
                    "gateway.shutdown.grace-period", "1s"), Map.of("OPENAI_API_KEY", "sk-upstream-openai"));
            try (Socket caller = new Socket("127.0.0.1", gateway.gateway().port())) {
                caller.setSoTimeout((int) WAIT.toMillis());
                RawCaller.sendChat(caller, "{\"model\":\"openai/gpt-5\",\"messages\":[]}");
                upstream.take(WAIT);

                CompletableFuture<Void> stopping = CompletableFuture.runAsync(gateway::close);
                Answer answer = RawCaller.readAnswer(caller.getInputStream());

                assertEquals(503, answer.status(), answer.body());
                assertEquals("close", answer.headers().get("connection"));
                assertTrue(answer.body().contains("\"code\":\"shutting_down\""), answer.body());
                stopping.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            }
        }
    }

    @Test
    void aStreamWaitingOnItsUpstreamPastTheGracePeriodEndsWithAShuttingDownEvent() throws Exception {
        try (ScriptedUpstream upstream = new ScriptedUpstream()) {
            TestGateway gateway = TestGateway.start(Map.of("providers.openai.base-url", upstream.baseUrl(),
                    "gateway.shutdown.grace-period", "1s"), Map.of("OPENAI_API_KEY", "sk-upstream-openai"));
            CompletableFuture<HttpResponse<String>> response = gateway.client().sendAsync(
                    gateway.request("/api/v1/chat/completions").header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString(
                                    "{\"model\":\"openai/gpt-5\",\"stream\":true,\"messages\":[]}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            Exchange exchange = upstream.take(WAIT);
            exchange.startStream(200, "text/event-stream");
            exchange.send(CHUNK);

            CompletableFuture<Void> stopping = CompletableFuture.runAsync(gateway::close);

            assertEquals(CHUNK + "data: {\"error\":{\"message\":\"The gateway is stopping and its grace period ran"
                    + " out; the stream was cut.\",\"type\":\"upstream_error\",\"param\":null,"
                    + "\"code\":\"shutting_down\"}}\n\n", response.get(WAIT.toSeconds(), TimeUnit.SECONDS).body());
            assertTrue(exchange.awaitClosedByPeer(WAIT), "the gateway must drop the upstream connection it gave up on");
            stopping.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        }
    }
}
