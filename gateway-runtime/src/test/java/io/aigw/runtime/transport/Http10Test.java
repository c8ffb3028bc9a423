package io.aigw.runtime.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.RawCaller;
import io.aigw.runtime.testing.RawCaller.Answer;
import io.aigw.runtime.testing.TestGateway;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * HTTP/1.0 callers (nginx's default {@code proxy_http_version 1.0} among them) are served: answers
 * of unknown length come without chunks, ended by the connection's close, and a connection is kept
 * only when the caller asks for it.
 */
final class Http10Test {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String AUTH = "Authorization: Bearer " + TestGateway.KEY + "\r\n";
    private static final String EVENTS = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[]}\n\n"
            + "data: [DONE]\n\n";
    private static MockWebServer upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws IOException {
        upstream = new MockWebServer();
        upstream.start();
        gateway = TestGateway.start(Map.of("providers.openai.base-url", upstream.url("/v1").toString()),
                Map.of("OPENAI_API_KEY", "sk-up"));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void anAnswerOfKnownLengthGoesToAnHttp10CallerAndTheConnectionCloses() throws Exception {
        try (Socket caller = connect()) {
            RawCaller.write(caller, bytes("GET /api/v1/models HTTP/1.0\r\nHost: 127.0.0.1\r\n" + AUTH + "\r\n"));

            Answer answer = RawCaller.readAnswer(caller.getInputStream());
            assertEquals(200, answer.status(), answer.body());
            assertTrue(answer.body().startsWith("{\"object\":\"list\",\"data\""), answer.body());
            assertEquals("close", answer.headers().get("connection"));
            assertTrue(RawCaller.ended(caller));
        }
    }

    @Test
    void aStreamGoesToAnHttp10CallerWithoutChunksEndedByTheClose() throws Exception {
        upstream.enqueue(new MockResponse.Builder().setHeader("Content-Type", "text/event-stream").body(EVENTS)
                .build());
        String body = "{\"model\":\"openai/gpt-5\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
                + "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
        try (Socket caller = connect()) {
            RawCaller.write(caller, bytes("POST /api/v1/chat/completions HTTP/1.0\r\nHost: 127.0.0.1\r\n" + AUTH
                    + "Content-Type: application/json\r\nContent-Length: " + body.length() + "\r\n\r\n" + body));

            Closed answer = readToClose(caller.getInputStream());
            assertTrue(answer.statusLine().startsWith("HTTP/1.1 200"), answer.statusLine());
            assertFalse(answer.headers().containsKey("transfer-encoding"), answer.headers().toString());
            assertFalse(answer.headers().containsKey("content-length"), answer.headers().toString());
            assertEquals("close", answer.headers().get("connection"));
            assertEquals(EVENTS, answer.body());
        }
    }

    @Test
    void healthAnswersAnHttp10Caller() throws Exception {
        try (Socket caller = connect()) {
            RawCaller.write(caller, bytes("GET /observe/health/live HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n"));

            Closed answer = readToClose(caller.getInputStream());
            assertTrue(answer.statusLine().startsWith("HTTP/1.1 200"), answer.statusLine());
            assertFalse(answer.headers().containsKey("transfer-encoding"), answer.headers().toString());
            assertTrue(answer.body().contains("\"status\":\"UP\""), answer.body());
        }
    }

    @Test
    void anHttp10RequestWithoutHostIsServed() throws Exception {
        // As HAProxy's health check sends it.
        try (Socket caller = connect()) {
            RawCaller.write(caller, bytes("GET /observe/health/live HTTP/1.0\r\n\r\n"));

            Closed answer = readToClose(caller.getInputStream());
            assertTrue(answer.statusLine().startsWith("HTTP/1.1 200"), answer.statusLine());
        }
        try (Socket caller = connect()) {
            RawCaller.write(caller, bytes("GET /api/v1/models HTTP/1.1\r\n" + AUTH + "\r\n"));
            assertEquals(400, RawCaller.readAnswer(caller.getInputStream()).status(), "HTTP/1.1 needs its Host");
        }
    }

    @Test
    void anHttp10CallerAskingForKeepAliveKeepsItsConnection() throws Exception {
        String models = "GET /api/v1/models HTTP/1.0\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n" + AUTH + "\r\n";
        try (Socket caller = connect()) {
            RawCaller.write(caller, bytes(models));
            Answer first = RawCaller.readAnswer(caller.getInputStream());
            assertEquals(200, first.status());
            assertEquals("keep-alive", first.headers().get("connection"));

            RawCaller.write(caller, bytes(models));
            Answer second = RawCaller.readAnswer(caller.getInputStream());
            assertEquals(200, second.status());
        }
    }

    /** An answer whose body runs to the connection's end. */
    record Closed(String statusLine, Map<String, String> headers, String body) {
    }

    private static Closed readToClose(InputStream in) throws IOException {
        String all = new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        int headEnd = all.indexOf("\r\n\r\n");
        String[] lines = all.substring(0, headEnd).split("\r\n");
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.put(lines[i].substring(0, colon).toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).strip());
        }
        return new Closed(lines[0], headers, all.substring(headEnd + 4));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", gateway.gateway().port());
        socket.setSoTimeout((int) WAIT.toMillis());
        return socket;
    }
}
