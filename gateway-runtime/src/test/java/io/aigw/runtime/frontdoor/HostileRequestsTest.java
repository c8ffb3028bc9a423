package io.aigw.runtime.frontdoor;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.frontdoor.HostileCorpus.Entry;
import io.aigw.runtime.testing.CannedUpstream;
import io.aigw.runtime.testing.LogRecords;
import io.aigw.runtime.testing.RawCaller;
import io.aigw.runtime.testing.RawCaller.Answer;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.logging.LogRecord;
import java.util.stream.Stream;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The hostile-request corpus ({@link HostileCorpus}) against a gateway on a real socket. For each:
 * never a 500; an answer in the OpenAI error shape (or, for a sender that stalls, the connection
 * closed within the caller timeouts); no stack trace or key in the answer or the log; the connection
 * closed when the answer says so (and whenever the framing was broken), else serving the next
 * request; and the gateway serving a normal request after it.
 */
final class HostileRequestsTest {
    private static final Duration WAIT = Duration.ofSeconds(15);
    private static final String UPSTREAM_KEY = "sk-upstream-secret-openai";
    private static final String MODELS = "GET /api/v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n" + HostileCorpus.AUTH
            + "\r\n";
    private static MockWebServer upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws IOException {
        // Whatever gets through is refused by the upstream, in its own words.
        upstream = CannedUpstream.start(400, "{\"error\":{\"message\":\"upstream refuses\",\"type\":\"invalid_request_error\","
                + "\"param\":null,\"code\":null}}");
        gateway = TestGateway.start(Map.of(
                "providers.openai.base-url", upstream.url("/v1").toString(),
                "gateway.timeouts.caller-headers", "1s",
                "gateway.timeouts.caller-body", "1s",
                "gateway.timeouts.caller-keep-alive", "5s"), Map.of("OPENAI_API_KEY", UPSTREAM_KEY));
    }

    @AfterAll
    static void stop() {
        gateway.close();
        upstream.close();
    }

    static Stream<Entry> corpus() {
        return HostileCorpus.all().stream();
    }

    @Test
    void theCorpusHoldsAtLeastThreeHundredRequests() {
        assertTrue(HostileCorpus.all().size() >= 300, "only " + HostileCorpus.all().size());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void isRefusedCleanlyAndTheGatewayServesOn(Entry entry) throws Exception {
        try (LogRecords logs = LogRecords.capture(); Socket caller = connect()) {
            send(caller, entry.pieces());
            if (entry.stalls()) {
                assertTrue(RawCaller.ended(caller), "a stalled request's connection stays open");
            } else {
                Answer answer = RawCaller.readAnswer(caller.getInputStream());
                if (answer.status() == 100) {
                    // An interim answer to Expect: 100-continue; the final one follows.
                    answer = RawCaller.readAnswer(caller.getInputStream());
                }
                assertNotEquals(500, answer.status(), answer.body());
                assertTrue(answer.status() >= 400, answer.status() + " " + answer.body());
                assertOpenAiError(answer.body());
                assertClean(answer.body());
                boolean closes = "close".equalsIgnoreCase(answer.headers().get("connection"));
                if (entry.mustClose()) {
                    assertTrue(closes, "broken framing must close the connection: " + answer.headers());
                }
                if (closes) {
                    caller.shutdownOutput();
                    assertTrue(RawCaller.ended(caller));
                } else if (entry.framed()) {
                    RawCaller.write(caller, MODELS.getBytes(StandardCharsets.ISO_8859_1));
                    Answer next = RawCaller.readAnswer(caller.getInputStream());
                    assertEquals(200, next.status(), "the kept connection is out of step: " + next.body());
                }
            }
            assertCleanLog(logs.records());
        }
        try (Socket next = connect()) {
            RawCaller.write(next, MODELS.getBytes(StandardCharsets.ISO_8859_1));
            assertEquals(200, RawCaller.readAnswer(next.getInputStream()).status());
        }
    }

    private static void send(Socket caller, List<byte[]> pieces) throws Exception {
        for (int i = 0; i < pieces.size(); i++) {
            if (i > 0) {
                Thread.sleep(20);
            }
            try {
                RawCaller.write(caller, pieces.get(i));
            } catch (IOException e) {
                // The gateway may answer and close before it has read all of a large request.
                return;
            }
        }
    }

    private static void assertOpenAiError(String body) {
        JsonObject error;
        try (JsonReader reader = Json.createReader(new StringReader(body))) {
            error = reader.readObject().getJsonObject("error");
        }
        assertTrue(error != null, body);
        assertFalse(error.getString("message").isBlank(), body);
        assertFalse(error.getString("type").isBlank(), body);
        assertTrue(error.containsKey("param") && error.containsKey("code"), body);
        for (String member : new String[] {"param", "code"}) {
            JsonValue value = error.get(member);
            assertTrue(value.getValueType() == JsonValue.ValueType.NULL
                    || value.getValueType() == JsonValue.ValueType.STRING, body);
        }
    }

    private static void assertClean(String text) {
        assertFalse(text.contains(UPSTREAM_KEY), text);
        assertFalse(text.contains(TestGateway.KEY), text);
        assertFalse(text.contains("Exception") || text.contains("\tat ") || text.contains("at io."), text);
    }

    private static void assertCleanLog(List<LogRecord> records) {
        for (LogRecord record : records) {
            assertEquals(null, record.getThrown(), record.getLoggerName() + ": " + record.getMessage());
            String message = String.valueOf(record.getMessage());
            assertFalse(message.contains(UPSTREAM_KEY) || message.contains(TestGateway.KEY), message);
            assertFalse(message.contains("\n"), "one line: " + message);
        }
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", gateway.gateway().port());
        socket.setSoTimeout((int) WAIT.toMillis());
        return socket;
    }
}
