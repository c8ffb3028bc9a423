package io.aigw.distribution;

import static io.aigw.distribution.GatewayProcess.env;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Request bodies up to the documented limit (10 MiB) go through the real {@code bin/gateway} with
 * its shipped JVM options: forwarded whole, several at once; one byte over gets 413; none gets a 500.
 */
public final class LargeRequestsIT {
    private static final String MASTER = "sk-gw-distribution-test-0123456789";
    private static final int TEN_MIB = 10 * 1024 * 1024;
    private static final String ANSWER = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
            + "\"message\":{\"role\":\"assistant\",\"content\":\"Hello\"},\"finish_reason\":\"stop\"}],"
            + "\"usage\":{\"prompt_tokens\":1,\"completion_tokens\":1,\"total_tokens\":2}}";
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @TempDir
    Path work;
    private Path home;
    private HttpServer upstream;
    private final ConcurrentLinkedQueue<byte[]> received = new ConcurrentLinkedQueue<>();

    @BeforeEach
    void start() throws IOException {
        home = GatewayProcess.copyDistribution(work);
        upstream = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        upstream.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        upstream.createContext("/v1/chat/completions", this::answer);
        upstream.start();
    }

    @AfterEach
    void stop() {
        upstream.stop(0);
    }

    @Test
    void aFiveMegabyteMessageAndABodyOfExactlyTheLimitAreForwardedWhole() throws Exception {
        try (GatewayProcess gateway = startGateway()) {
            for (int size : new int[] {5_000_000, TEN_MIB}) {
                byte[] body = chat(size);
                HttpResponse<String> response = send(gateway, HttpRequest.BodyPublishers.ofByteArray(body))
                        .get(60, TimeUnit.SECONDS);

                assertEquals(200, response.statusCode(), response.body() + gateway.output());
                assertArrayEquals(forwarded(body), received.poll(), "the body the upstream got, of " + size + " bytes");
            }
            assertNoHeapTrouble(gateway);
        }
    }

    @Test
    void aChunkedBodyOneByteOverTheLimitGets413() throws Exception {
        try (GatewayProcess gateway = startGateway()) {
            byte[] body = chat(TEN_MIB + 1);
            // A stream of unknown length: the client sends it chunked.
            HttpResponse<String> response = send(gateway, HttpRequest.BodyPublishers.ofInputStream(
                    () -> new ByteArrayInputStream(body))).get(60, TimeUnit.SECONDS);

            assertEquals(413, response.statusCode(), response.body() + gateway.output());
            assertTrue(response.body().contains("\"code\":\"request_too_large\""), response.body());
            assertTrue(received.isEmpty(), "nothing reaches the upstream");
            assertNoHeapTrouble(gateway);
        }
    }

    @Test
    void eightTwoMegabyteRequestsAtOnceAreEachServedOrToldToRetry() throws Exception {
        try (GatewayProcess gateway = startGateway()) {
            byte[] body = chat(2_000_000);
            List<CompletableFuture<HttpResponse<String>>> pending = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                pending.add(send(gateway, HttpRequest.BodyPublishers.ofByteArray(body)));
            }
            int served = 0;
            for (CompletableFuture<HttpResponse<String>> each : pending) {
                HttpResponse<String> response = each.get(60, TimeUnit.SECONDS);
                if (response.statusCode() == 200) {
                    served++;
                } else {
                    // One key's bodies may hold only its share of the body memory (429); the
                    // gateway's whole body memory full is 503. Either tells the caller to retry.
                    String code = response.statusCode() == 429 ? "rate_limit_exceeded" : "overloaded";
                    assertTrue(response.statusCode() == 429 || response.statusCode() == 503,
                            response.body() + gateway.output());
                    assertEquals("1", response.headers().firstValue("Retry-After").orElseThrow());
                    assertTrue(response.body().contains("\"code\":\"" + code + "\""), response.body());
                }
            }
            assertEquals(served, received.size());
            assertTrue(served > 0, "none of eight was served");
            assertNoHeapTrouble(gateway);
        }
    }

    @Test
    void aHeapTooSmallForItsLimitsAnswers503AndOneLogLineNotAStackTrace() throws Exception {
        // Limits set past what a 40 MB heap holds: the operator's mistake, which the caller must
        // still see as a retryable 503, and the operator as one line.
        try (GatewayProcess gateway = GatewayProcess.start(home, env("GATEWAY_MASTER_KEY", MASTER,
                "OPENAI_API_KEY", "sk-upstream-large",
                "OPENAI_BASE_URL", "http://127.0.0.1:" + upstream.getAddress().getPort() + "/v1",
                "GATEWAY_ACCESS_LOG", "off", "GATEWAY_JAVA_OPTS", "-XX:+UseSerialGC -Xmx40m",
                "GATEWAY_MAX_BODY_SIZE", "30000000", "GATEWAY_BODY_MEMORY", "90000000"))) {
            HttpResponse<String> response = send(gateway, HttpRequest.BodyPublishers.ofByteArray(chat(24_000_000)))
                    .get(60, TimeUnit.SECONDS);

            assertEquals(503, response.statusCode(), response.body() + gateway.output());
            assertEquals("1", response.headers().firstValue("Retry-After").orElseThrow());
            assertTrue(response.body().contains("\"code\":\"overloaded\""), response.body());
            assertTrue(gateway.output().contains("Out of heap answering /api/v1/chat/completions"), gateway.output());
            assertFalse(gateway.output().contains("OutOfMemoryError"), gateway.output());
            assertFalse(gateway.output().contains("\tat "), "a stack trace: " + gateway.output());

            HttpResponse<String> next = send(gateway, HttpRequest.BodyPublishers.ofByteArray(chat(1_000)))
                    .get(60, TimeUnit.SECONDS);
            assertEquals(200, next.statusCode(), next.body() + gateway.output());
        }
    }

    private static void assertNoHeapTrouble(GatewayProcess gateway) {
        assertFalse(gateway.output().contains("OutOfMemoryError"), gateway.output());
        assertFalse(gateway.output().contains("Out of heap"), gateway.output());
    }

    private GatewayProcess startGateway() throws Exception {
        return GatewayProcess.start(home, env("GATEWAY_MASTER_KEY", MASTER, "OPENAI_API_KEY", "sk-upstream-large",
                "OPENAI_BASE_URL", "http://127.0.0.1:" + upstream.getAddress().getPort() + "/v1",
                "GATEWAY_ACCESS_LOG", "off"));
    }

    private static CompletableFuture<HttpResponse<String>> send(GatewayProcess gateway,
                                                                HttpRequest.BodyPublisher body) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port()
                        + "/api/v1/chat/completions")).timeout(Duration.ofSeconds(60))
                .header("Authorization", "Bearer " + MASTER).header("Content-Type", "application/json")
                .POST(body).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static final String HEAD = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"";
    private static final String TAIL = "\"}]}";

    /** A chat request of exactly {@code size} bytes: one message of non-ASCII text and escapes. */
    private static byte[] chat(int size) {
        byte[] body = new byte[size];
        byte[] head = HEAD.getBytes(StandardCharsets.US_ASCII);
        byte[] tail = TAIL.getBytes(StandardCharsets.US_ASCII);
        byte[] text = "caf\u00e9 \\n \\\"quoted\\\" ".getBytes(StandardCharsets.UTF_8);
        System.arraycopy(head, 0, body, 0, head.length);
        int at = head.length;
        int end = size - tail.length;
        while (at + text.length <= end) {
            System.arraycopy(text, 0, body, at, text.length);
            at += text.length;
        }
        Arrays.fill(body, at, end, (byte) 'a');
        System.arraycopy(tail, 0, body, end, tail.length);
        return body;
    }

    /** The body as the gateway forwards it: the model without its provider prefix, every other byte as sent. */
    private static byte[] forwarded(byte[] body) {
        int prefix = HEAD.indexOf("openai/");
        byte[] out = new byte[body.length - "openai/".length()];
        System.arraycopy(body, 0, out, 0, prefix);
        System.arraycopy(body, prefix + "openai/".length(), out, prefix, out.length - prefix);
        return out;
    }

    private void answer(HttpExchange exchange) throws IOException {
        received.add(exchange.getRequestBody().readAllBytes());
        byte[] answer = ANSWER.getBytes(StandardCharsets.US_ASCII);
        exchange.getResponseHeaders().add("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, answer.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
        }
    }
}
