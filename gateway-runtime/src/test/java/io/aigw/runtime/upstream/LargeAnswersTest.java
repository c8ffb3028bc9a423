package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.CallRecords;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import io.aigw.runtime.testing.TestGateway;
import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import okio.Buffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A plain answer larger than the gateway reads whole goes through as it arrives: to the byte, with
 * its length, its usage found at its end. One cut short mid-way cannot end well; the caller's
 * connection closes so that it is not taken for whole. (The shipped heap is {@code LargeAnswersIT}'s.)
 */
public final class LargeAnswersTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String CHAT = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    private static final int ONE_MB = 1024 * 1024;

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer();

    @Test
    void anAnswerWithALengthGoesThroughToTheByteWithThatLengthAndItsUsage() throws Exception {
        byte[] answer = completion(ONE_MB, 11);
        front.upstream().enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json")
                .body(new Buffer().write(answer)).build());

        HttpResponse<byte[]> response = chat();

        assertEquals(200, response.statusCode());
        assertEquals(String.valueOf(answer.length), response.headers().firstValue("Content-Length").orElseThrow());
        assertEquals("openai", response.headers().firstValue("X-Gateway-Provider").orElseThrow());
        assertArrayEquals(answer, response.body());
        assertEquals(List.of("200 11"), CallRecords.usageRecords(front.gateway(), 1));
    }

    @Test
    void aChunkedAnswerGoesThroughToTheByteWithItsUsage() throws Exception {
        byte[] answer = completion(ONE_MB, 5);
        front.upstream().enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json")
                .chunkedBody(new Buffer().write(answer), 7_000).build());

        HttpResponse<byte[]> response = chat();

        assertEquals(200, response.statusCode());
        assertArrayEquals(answer, response.body());
        assertEquals(List.of("200 5"), CallRecords.usageRecords(front.gateway(), 1));
    }

    @Test
    void anAnswerThatBreaksAfterItsStartWasRelayedEndsTheCallersConnection() throws Exception {
        try (ScriptedUpstream scripted = new ScriptedUpstream();
             TestGateway cut = TestGateway.start(Map.of("providers.openai.base-url", scripted.baseUrl()),
                     Map.of("OPENAI_API_KEY", "sk-upstream-openai"))) {
            CompletableFuture<HttpResponse<InputStream>> response = cut.client().sendAsync(request(cut),
                    HttpResponse.BodyHandlers.ofInputStream());
            Exchange exchange = scripted.take(WAIT);
            exchange.startAnswer(200, "application/json", ONE_MB);
            String start = "{\"choices\":[{\"message\":{\"content\":\"" + "a".repeat(200_000);
            exchange.write(start);
            HttpResponse<InputStream> caller = response.get(WAIT.toSeconds(), TimeUnit.SECONDS);
            assertEquals(200, caller.statusCode());
            // The relay passes a plain answer on in blocks: the caller has its start, not yet all that was sent.
            assertEquals(start.substring(0, 1000), new String(caller.body().readNBytes(1000), StandardCharsets.UTF_8));
            exchange.abort();

            assertThrows(IOException.class, () -> caller.body().readAllBytes());
            assertEquals(List.of(502), CallRecords.usageStatuses(cut, 1));
        }
    }

    @Test
    void anErrorBodyIsReadOnlyUpToItsCapAndStillBecomesAnOpenAiError() throws Exception {
        byte[] page = new byte[2 * ONE_MB];
        Arrays.fill(page, (byte) 'x');
        System.arraycopy("<html>Oops ".getBytes(StandardCharsets.US_ASCII), 0, page, 0, 11);
        front.upstream().enqueue(new MockResponse.Builder().code(500).addHeader("Content-Type", "text/html")
                .body(new Buffer().write(page)).build());

        HttpResponse<byte[]> response = chat();

        assertEquals(500, response.statusCode());
        assertEquals("{\"error\":{\"message\":\"Upstream openai answered 500: <html>Oops " + "x".repeat(289)
                + "\",\"type\":\"server_error\",\"param\":null,\"code\":null}}",
                new String(response.body(), StandardCharsets.UTF_8));
    }

    private HttpResponse<byte[]> chat() throws Exception {
        return front.gateway().client().send(request(front.gateway()), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static HttpRequest request(TestGateway gateway) {
        return gateway.request("/api/v1/chat/completions").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(CHAT)).build();
    }

    /** A chat completion of {@code size} bytes whose usage, at its end as providers put it, says {@code tokens}. */
    static byte[] completion(int size, int tokens) {
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
}
