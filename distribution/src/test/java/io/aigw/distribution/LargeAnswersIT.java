package io.aigw.distribution;

import static io.aigw.distribution.GatewayProcess.env;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upstream answers far larger than the heap the gateway starts with ({@code -Xms52m}) go through
 * the real {@code bin/gateway}: byte for byte, with their usage counted, several at once.
 */
public final class LargeAnswersIT {
    private static final String MASTER = "sk-gw-distribution-test-0123456789";
    private static final int TWENTY_MB = 20 * 1024 * 1024;
    private static final String CHAT = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    @TempDir
    Path work;
    private Path home;
    private HttpServer upstream;
    private volatile byte[] answer;
    private volatile int answerStatus = 200;
    private volatile boolean chunked;

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
    void aTwentyMegabyteAnswerIsRelayedByteForByteAndItsUsageIsRecorded() throws Exception {
        answer = completion(TWENTY_MB, 7);

        try (GatewayProcess gateway = startGateway()) {
            HttpResponse<byte[]> response = chat(gateway).get(60, TimeUnit.SECONDS);

            assertEquals(200, response.statusCode(), gateway.output());
            assertEquals(String.valueOf(answer.length), response.headers().firstValue("Content-Length").orElseThrow());
            assertArrayEquals(answer, response.body());
            gateway.terminate();
            assertEquals(0, gateway.awaitExit(), gateway.output());
            assertEquals(List.of("200 7"), usageRecords(), gateway.output());
        }
    }

    @Test
    void fourChunkedTwentyMegabyteAnswersAtOnceAreEachRelayedWhole() throws Exception {
        answer = completion(TWENTY_MB, 3);
        chunked = true;

        try (GatewayProcess gateway = startGateway()) {
            List<CompletableFuture<HttpResponse<byte[]>>> responses = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                responses.add(chat(gateway));
            }
            for (CompletableFuture<HttpResponse<byte[]>> pending : responses) {
                HttpResponse<byte[]> response = pending.get(120, TimeUnit.SECONDS);
                assertEquals(200, response.statusCode(), gateway.output());
                assertArrayEquals(answer, response.body());
            }
            gateway.terminate();
            assertEquals(0, gateway.awaitExit(), gateway.output());
            assertEquals(List.of("200 3", "200 3", "200 3", "200 3"), usageRecords(), gateway.output());
        }
    }

    @Test
    void aTwentyMegabyteErrorPageComesBackAsAShortErrorWithItsStatus() throws Exception {
        byte[] page = new byte[TWENTY_MB];
        Arrays.fill(page, (byte) 'x');
        byte[] start = "<html>Bad gateway ".getBytes(StandardCharsets.US_ASCII);
        System.arraycopy(start, 0, page, 0, start.length);
        answer = page;
        answerStatus = 503;

        try (GatewayProcess gateway = startGateway()) {
            HttpResponse<byte[]> response = chat(gateway).get(60, TimeUnit.SECONDS);

            assertEquals(503, response.statusCode(), gateway.output());
            String body = new String(response.body(), StandardCharsets.UTF_8);
            assertTrue(body.startsWith("{\"error\":{\"message\":\"Upstream openai answered 503: <html>Bad gateway xxx"),
                    body);
            assertTrue(body.length() < 1_000, "an error of " + body.length() + " bytes");
        }
    }

    private GatewayProcess startGateway() throws Exception {
        return GatewayProcess.start(home, env("GATEWAY_MASTER_KEY", MASTER, "OPENAI_API_KEY", "sk-upstream-large",
                "OPENAI_BASE_URL", "http://127.0.0.1:" + upstream.getAddress().getPort() + "/v1"));
    }

    private static CompletableFuture<HttpResponse<byte[]>> chat(GatewayProcess gateway) {
        return CLIENT.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port()
                        + "/api/v1/chat/completions")).timeout(Duration.ofSeconds(120))
                .header("Authorization", "Bearer " + MASTER).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(CHAT)).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    /** A chat completion of about {@code size} bytes whose usage, at its end as providers put it, says {@code tokens}. */
    private static byte[] completion(int size, int tokens) {
        String start = "{\"id\":\"chatcmpl-large\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"";
        String end = "\"},\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":" + tokens
                + ",\"completion_tokens\":" + tokens + ",\"total_tokens\":" + tokens + "},\"system_fingerprint\":\"fp\"}";
        byte[] body = new byte[size];
        Arrays.fill(body, (byte) 'a');
        System.arraycopy(start.getBytes(StandardCharsets.US_ASCII), 0, body, 0, start.length());
        System.arraycopy(end.getBytes(StandardCharsets.US_ASCII), 0, body, size - end.length(), end.length());
        return body;
    }

    private void answer(HttpExchange exchange) throws IOException {
        exchange.getRequestBody().readAllBytes();
        exchange.getResponseHeaders().add("Content-Type", answerStatus == 200 ? "application/json" : "text/html");
        exchange.sendResponseHeaders(answerStatus, chunked ? 0 : answer.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
        }
    }

    /** Each usage record's status and total tokens, in the order written. */
    private List<String> usageRecords() throws Exception {
        try (Connection database = DriverManager.getConnection("jdbc:sqlite:" + home.resolve("data/gateway.db"));
             ResultSet rows = database.createStatement().executeQuery(
                     "SELECT status, total_tokens FROM usage_records ORDER BY recorded_at")) {
            List<String> records = new ArrayList<>();
            while (rows.next()) {
                records.add(rows.getInt(1) + " " + rows.getLong(2));
            }
            return records;
        }
    }
}
