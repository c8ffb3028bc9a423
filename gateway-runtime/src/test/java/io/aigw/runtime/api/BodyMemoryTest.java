package io.aigw.runtime.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.testing.RawCaller;
import io.aigw.runtime.testing.TestGateway;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Request bodies in flight share the heap set aside for them ({@code gateway.body-memory}): a body
 * that finds no room waits briefly, then gets a 503 with Retry-After, never an exhausted heap; the
 * room comes back when a body's request ends. Over a real socket, with a caller that holds its
 * chunked body half sent.
 */
public final class BodyMemoryTest {
    private static final int MAX_BODY = 200_000;
    /** Room for one largest body, as the gateway holds it while reading and forwarding. */
    private static final int BODY_MEMORY = 3 * MAX_BODY;
    private static final String ANSWER = "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
            + "\"message\":{\"role\":\"assistant\",\"content\":\"Hello\"},\"finish_reason\":\"stop\"}]}";
    private MockWebServer upstream;
    private TestGateway gateway;

    @BeforeEach
    void start() throws IOException {
        upstream = new MockWebServer();
        upstream.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json")
                        .body(ANSWER).build();
            }
        });
        upstream.start();
        gateway = TestGateway.start(Map.of("gateway.max-body-size", Integer.toString(MAX_BODY),
                        "gateway.body-memory", Integer.toString(BODY_MEMORY),
                        "providers.openai.base-url", upstream.url("/v1").toString()),
                Map.of("OPENAI_API_KEY", "sk-upstream-test"));
    }

    @AfterEach
    void stop() {
        gateway.close();
        upstream.close();
    }

    @Test
    void aBodyFindingNoRoomGets503WithRetryAfterAndIsServedOnceTheRoomIsBack() throws Exception {
        String head = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"";
        String tail = "\"}]}";
        try (Socket holder = new Socket("127.0.0.1", gateway.gateway().port())) {
            OutputStream out = holder.getOutputStream();
            out.write(("POST /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                    + TestGateway.KEY + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            // Two thirds of the largest body, then nothing: the gateway holds room for what it read
            // and for the next step it waits on, which leaves too little for another large body.
            chunk(out, head + "a".repeat(2 * MAX_BODY / 3));

            HttpResponse<String> refused = null;
            for (int attempt = 0; attempt < 20 && refused == null; attempt++) {
                HttpResponse<String> reply = gateway.chat(body(MAX_BODY / 2));
                if (reply.statusCode() != 200) {
                    refused = reply;
                }
            }
            assertTrue(refused != null, "a large body was always admitted while another held the room");
            assertEquals(503, refused.statusCode(), refused.body());
            assertEquals("1", refused.headers().firstValue("Retry-After").orElseThrow());
            assertTrue(refused.body().startsWith("{\"error\":{\"message\":\"The gateway is holding as many request"
                    + " bodies as"), refused.body());
            assertTrue(refused.body().contains("\"code\":\"overloaded\""), refused.body());

            chunk(out, tail);
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            RawCaller.Answer held = RawCaller.readAnswer(holder.getInputStream());
            assertEquals(200, held.status(), held.body());
        }
        HttpResponse<String> after = gateway.chat(body(MAX_BODY / 2));
        assertEquals(200, after.statusCode(), after.body());
    }

    @Test
    void aChunkedBodyOneByteOverTheLimitGets413() throws Exception {
        String body = body(MAX_BODY + 1);
        try (Socket caller = new Socket("127.0.0.1", gateway.gateway().port())) {
            OutputStream out = caller.getOutputStream();
            out.write(("POST /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                    + TestGateway.KEY + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            chunk(out, body);
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            RawCaller.Answer answer = RawCaller.readAnswer(caller.getInputStream());
            assertEquals(413, answer.status(), answer.body());
            assertTrue(answer.body().contains("\"code\":\"request_too_large\""), answer.body());
        }
    }

    @Test
    void aChunkedBodyOfExactlyTheLimitIsServedWithTheWholeBudgetFree() throws Exception {
        try (Socket caller = new Socket("127.0.0.1", gateway.gateway().port())) {
            OutputStream out = caller.getOutputStream();
            out.write(("POST /api/v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
                    + TestGateway.KEY + "\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            chunk(out, body(MAX_BODY));
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            RawCaller.Answer answer = RawCaller.readAnswer(caller.getInputStream());
            assertEquals(200, answer.status(), answer.body());
        }
        assertEquals(MAX_BODY - "openai/".length(), upstream.takeRequest().getBodySize());
    }

    @Test
    void aBodyMemoryThatCannotHoldTheLargestBodyIsRefusedAtStart() {
        ConfigurationException refused = assertThrows(ConfigurationException.class, () -> TestGateway.start(
                Map.of("gateway.max-body-size", "1000", "gateway.body-memory", "2999"), Map.of()));
        assertTrue(refused.getMessage().contains("gateway.body-memory"), refused.getMessage());
    }

    /** A valid chat request of exactly {@code size} bytes, model prefix included. */
    private static String body(int size) {
        String head = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"";
        String tail = "\"}]}";
        return head + "a".repeat(size - head.length() - tail.length()) + tail;
    }

    private static void chunk(OutputStream out, String data) throws IOException {
        byte[] bytes = data.getBytes(StandardCharsets.US_ASCII);
        out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(bytes);
        out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        out.flush();
    }
}
