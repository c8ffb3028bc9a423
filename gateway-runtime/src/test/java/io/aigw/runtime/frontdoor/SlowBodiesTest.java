package io.aigw.runtime.frontdoor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.CannedUpstream;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.RawCaller;
import io.aigw.runtime.testing.TestGateway;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * One key's slow request bodies do not shut other keys out: a body holds memory for what has
 * arrived of it, not for the length it declares; a body slower than the minimum rate is answered
 * 408 and its connection closed; and one key cannot take every request slot. Each over real
 * sockets, with callers that send their bodies a byte at a time.
 */
final class SlowBodiesTest {
    private static final String ANSWER = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
            + "\"message\":{\"role\":\"assistant\",\"content\":\"Hello\"},\"finish_reason\":\"stop\"}]}";
    private static final int MAX_BODY = 300_000;
    private final List<Socket> sockets = new ArrayList<>();
    private final List<Thread> tricklers = new ArrayList<>();
    private MockWebServer upstream;
    private TestGateway gateway;

    @AfterEach
    void stop() throws IOException {
        tricklers.forEach(Thread::interrupt);
        for (Socket socket : sockets) {
            socket.close();
        }
        if (gateway != null) {
            gateway.close();
        }
        if (upstream != null) {
            upstream.close();
        }
    }

    @Test
    void anotherKeysChatRequestsAreAnsweredWhileOneKeyTricklesBodiesDeclaredAtTheLargestSize() throws Exception {
        start(Map.of("gateway.max-body-size", Integer.toString(MAX_BODY),
                "gateway.body-memory", Integer.toString(3 * MAX_BODY)));
        String other = KeysApi.json(KeysApi.of(gateway).create("{\"name\":\"other\"}").body()).getString("key");
        // The master key's callers declare the largest body, and send it a byte every half second.
        for (int i = 0; i < 4; i++) {
            Socket slow = open();
            RawCaller.write(slow, head(TestGateway.KEY, MAX_BODY));
            trickle(slow, 500);
        }
        Thread.sleep(500);

        for (int i = 0; i < 10; i++) {
            HttpResponse<String> answer = gateway.send(HttpRequest.newBuilder(gateway.uri("/api/v1/chat/completions"))
                    .header("Authorization", "Bearer " + other)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body(MAX_BODY / 2))).build());
            assertEquals(200, answer.statusCode(), "request " + i + ": " + answer.body());
        }
    }

    @Test
    void oneKeysBodiesHoldNoMoreThanItsShareOfTheBodyMemory() throws Exception {
        start(Map.of("gateway.max-body-size", "100000", "gateway.body-memory", "600000",
                "gateway.fairness.key-body-memory", "300000"));
        String other = KeysApi.json(KeysApi.of(gateway).create("{\"name\":\"other\"}").body()).getString("key");
        byte[] large = body(100_000).getBytes(StandardCharsets.US_ASCII);
        // Nearly all of a largest body: the key's whole share, held while the rest is awaited.
        Socket holding = open();
        RawCaller.write(holding, head(TestGateway.KEY, large.length));
        RawCaller.write(holding, Arrays.copyOf(large, 90_000));
        Thread.sleep(500);

        Socket beyond = open();
        RawCaller.write(beyond, head(TestGateway.KEY, large.length));
        RawCaller.write(beyond, Arrays.copyOf(large, 1_000));
        RawCaller.Answer refused = RawCaller.readAnswer(beyond.getInputStream());
        assertEquals(429, refused.status(), refused.body());
        assertEquals("1", refused.headers().get("retry-after"));
        assertTrue(refused.body().contains("gateway.fairness.key-body-memory"), refused.body());

        HttpResponse<String> answer = gateway.send(HttpRequest.newBuilder(gateway.uri("/api/v1/chat/completions"))
                .header("Authorization", "Bearer " + other)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body(90_000))).build());
        assertEquals(200, answer.statusCode(), answer.body());

        RawCaller.write(holding, Arrays.copyOfRange(large, 90_000, large.length));
        assertEquals(200, RawCaller.readAnswer(holding.getInputStream()).status());
    }

    @Test
    void aBodyTricklingBelowTheMinimumRateIsAnswered408AndItsConnectionClosed() throws Exception {
        start(Map.of("gateway.timeouts.caller-body-min-rate", "1000",
                "gateway.timeouts.caller-body-grace", "1s"));
        Socket slow = open();
        RawCaller.write(slow, head(TestGateway.KEY, 1000));
        InputStream in = slow.getInputStream();
        OutputStream out = slow.getOutputStream();
        // Ten bytes a second where a thousand are asked for: well behind after the grace second.
        for (int i = 0; i < 50 && in.available() == 0; i++) {
            try {
                out.write('a');
                out.flush();
            } catch (IOException e) {
                break;
            }
            Thread.sleep(100);
        }
        slow.setSoTimeout(3_000);
        RawCaller.Answer answer = RawCaller.readAnswer(in);
        assertEquals(408, answer.status(), answer.body());
        assertEquals("close", answer.headers().get("connection"), answer.headers().toString());
        assertTrue(answer.body().startsWith("{\"error\":{\"message\":\"The request body arrived slower than 1000"
                + " bytes a second"), answer.body());
        assertTrue(answer.body().endsWith("\"type\":\"invalid_request_error\",\"param\":null,"
                + "\"code\":\"request_timeout\"}}"), answer.body());
        assertTrue(RawCaller.ended(slow));

        // A body that keeps the rate is served, however long it takes past the grace.
        Socket steady = open();
        byte[] body = body(3000).getBytes(StandardCharsets.US_ASCII);
        RawCaller.write(steady, head(TestGateway.KEY, body.length));
        for (int at = 0; at < body.length; at += 300) {
            RawCaller.write(steady, Arrays.copyOfRange(body, at, Math.min(body.length, at + 300)));
            Thread.sleep(200);
        }
        assertEquals(200, RawCaller.readAnswer(steady.getInputStream()).status());
    }

    @Test
    void oneKeyCannotTakeEveryRequestSlotFromAnother() throws Exception {
        start(Map.of("gateway.max-concurrent-requests", "6", "gateway.fairness.in-flight-reserve", "2"));
        String other = KeysApi.json(KeysApi.of(gateway).create("{\"name\":\"other\"}").body()).getString("key");
        List<Socket> held = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Socket slow = open();
            RawCaller.write(slow, head(TestGateway.KEY, 1000));
            held.add(slow);
        }
        // The first four are reading their bodies; the last two slots are kept for other keys.
        int refused = 0;
        for (Socket slow : held) {
            slow.setSoTimeout(1_000);
            try {
                RawCaller.Answer answer = RawCaller.readAnswer(slow.getInputStream());
                assertEquals(429, answer.status(), answer.body());
                assertEquals("1", answer.headers().get("retry-after"));
                assertTrue(answer.body().contains("gateway.fairness.in-flight-reserve"), answer.body());
                refused++;
            } catch (SocketTimeoutException e) {
                // Admitted, and waiting for its body.
            }
        }
        assertEquals(2, refused);

        HttpResponse<String> answer = gateway.send(HttpRequest.newBuilder(gateway.uri("/api/v1/chat/completions"))
                .header("Authorization", "Bearer " + other)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body(1000))).build());
        assertEquals(200, answer.statusCode(), answer.body());
    }

    private void start(Map<String, String> config) throws IOException {
        upstream = CannedUpstream.start(200, ANSWER);
        Map<String, String> all = new HashMap<>(config);
        all.put("providers.openai.base-url", upstream.url("/v1").toString());
        gateway = TestGateway.start(all, Map.of("OPENAI_API_KEY", "sk-upstream-test"));
    }

    private Socket open() throws IOException {
        Socket socket = new Socket("127.0.0.1", gateway.gateway().port());
        socket.setSoTimeout(15_000);
        sockets.add(socket);
        return socket;
    }

    /** Sends a byte of {@code socket}'s body every {@code millis}, until the test ends or the gateway hangs up. */
    private void trickle(Socket socket, long millis) {
        tricklers.add(Thread.ofVirtual().start(() -> {
            try {
                while (true) {
                    RawCaller.write(socket, new byte[] {'a'});
                    Thread.sleep(millis);
                }
            } catch (IOException | InterruptedException e) {
                // The gateway hung up, or the test is over.
            }
        }));
    }

    /** A chat request's head with {@code key}, declaring a body of {@code length} bytes. */
    private static byte[] head(String key, int length) {
        return ("POST /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key
                + "\r\nContent-Type: application/json\r\nContent-Length: " + length + "\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }

    /** A valid chat request of exactly {@code size} bytes. */
    private static String body(int size) {
        String head = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"";
        String tail = "\"}]}";
        return head + "a".repeat(size - head.length() - tail.length()) + tail;
    }
}
