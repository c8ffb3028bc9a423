package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.CallRecords;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.LogRecords;
import io.aigw.runtime.testing.RawCaller;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import java.io.StringReader;
import java.net.Socket;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.List;
import java.util.logging.Level;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An upstream may end a body by closing its connection (HTTP/1.1 without a length or chunks, RFC
 * 9112 section 6.3), and any upstream may close one mid-body. A stream closed after its last event
 * ({@code data: [DONE]}) reaches the caller whole and ended in good form; one closed before it
 * (mid-event, between events, or inside a chunked body) ends for the caller with one error event
 * and the last chunk, and is recorded 502 with the cost of what was relayed, estimated. Read by a
 * raw socket, as a strict client (curl, Python's {@code http.client}) reads it.
 */
final class StreamEndedByCloseTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String REQUEST = "{\"model\":\"openai/gpt-5\",\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true},\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    private static final String FIRST = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\","
            + "\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"Hello there\"}}],\"usage\":null}\n\n";
    private static final String SECOND = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\","
            + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\", friend\"},\"finish_reason\":\"stop\"}],"
            + "\"usage\":null}\n\n";
    private static final String USAGE = "data: {\"id\":\"c1\",\"object\":\"chat.completion.chunk\",\"choices\":[],"
            + "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":4,\"total_tokens\":13}}\n\n";
    private static final String DONE = "data: [DONE]\n\n";
    private static final int ESTIMATED = 3;

    @RegisterExtension
    final GatewayInFront<ScriptedUpstream> front = GatewayInFront.scripted().withAccessLog();

    @Test
    void aStreamTheUpstreamEndsByClosingAfterDoneReachesTheCallerWholeAndEndedAndIsRecorded200() throws Exception {
        try (LogRecords logs = LogRecords.capture(); Socket caller = caller()) {
            Exchange exchange = front.upstream().take(WAIT);
            exchange.startUnframed(200, "text/event-stream");
            exchange.write(FIRST);
            exchange.write(SECOND + USAGE);
            exchange.write(DONE);
            exchange.close();

            RawCaller.Answer answer = RawCaller.readChunkedToItsEnd(caller.getInputStream());
            assertEquals(200, answer.status());
            assertEquals(FIRST + SECOND + USAGE + DONE, answer.body());
            JsonObject line = CallRecords.accessLogLines(front.accessLog(), 1).getFirst();
            assertEquals(200, line.getInt("status"));
            assertEquals(13, line.getInt("total_tokens"));
            assertEquals("priced", line.getString("cost_basis"));
            assertTrue(line.getJsonNumber("cost_usd").bigDecimalValue().signum() > 0, line.toString());
            assertEquals(List.of("200 13"), CallRecords.usageRecords(front.gateway(), 1));
            assertEquals(List.of(), logs.messages(Level.WARNING), "nothing for the operator to worry about");
        }
    }

    @Test
    void anHttp10StreamAsPythonsHttpServerSendsItEndsWholeAtTheClose() throws Exception {
        try (Socket caller = caller()) {
            Exchange exchange = front.upstream().take(WAIT);
            exchange.write("HTTP/1.0 200 OK\r\nServer: BaseHTTP/0.6 Python/3.12\r\nContent-Type: text/event-stream\r\n\r\n");
            exchange.write(FIRST + SECOND + USAGE + DONE);
            exchange.close();

            RawCaller.Answer answer = RawCaller.readChunkedToItsEnd(caller.getInputStream());
            assertEquals(200, answer.status());
            assertEquals(FIRST + SECOND + USAGE + DONE, answer.body());
            assertEquals(List.of("200 13"), CallRecords.usageRecords(front.gateway(), 1));
        }
    }

    @Test
    void aStreamClosedInsideAnEventEndsWithAnErrorEventAndIsRecorded502WithAnEstimatedCost() throws Exception {
        try (LogRecords logs = LogRecords.capture(); Socket caller = caller()) {
            Exchange exchange = front.upstream().take(WAIT);
            exchange.startUnframed(200, "text/event-stream");
            exchange.write(FIRST + SECOND.substring(0, 40));
            exchange.close();

            assertCut(caller, FIRST);
            assertEquals(List.of(), logs.records().stream().filter(record -> record.getThrown() != null)
                    .map(record -> record.getMessage()).toList(), "no stack trace logged");
        }
    }

    @Test
    void aStreamClosedBetweenEventsBeforeDoneIsCutShort() throws Exception {
        try (Socket caller = caller()) {
            Exchange exchange = front.upstream().take(WAIT);
            exchange.startUnframed(200, "text/event-stream");
            exchange.write(FIRST);
            exchange.close();

            assertCut(caller, FIRST);
        }
    }

    @Test
    void aChunkedStreamWhoseUpstreamClosesMidwayIsCutShort() throws Exception {
        try (Socket caller = caller()) {
            Exchange exchange = front.upstream().take(WAIT);
            exchange.startStream(200, "text/event-stream");
            exchange.send(FIRST);
            exchange.close();

            assertCut(caller, FIRST);
        }
    }

    @Test
    void aPlainAnswerTheUpstreamEndsByClosingReachesTheCallerWhole() throws Exception {
        String completion = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"Hello\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":1,\"total_tokens\":10}}";
        try (Socket caller = new Socket("127.0.0.1", front.gateway().gateway().port())) {
            caller.setSoTimeout((int) WAIT.toMillis());
            RawCaller.sendChat(caller, "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}");
            Exchange exchange = front.upstream().take(WAIT);
            exchange.startUnframed(200, "application/json");
            exchange.write(completion);
            exchange.close();

            RawCaller.Answer answer = RawCaller.readAnswer(caller.getInputStream());
            assertEquals(200, answer.status());
            assertEquals(completion, answer.body());
            assertEquals(List.of("200 10"), CallRecords.usageRecords(front.gateway(), 1));
        }
    }

    private Socket caller() throws Exception {
        Socket caller = new Socket("127.0.0.1", front.gateway().gateway().port());
        caller.setSoTimeout((int) WAIT.toMillis());
        RawCaller.sendChat(caller, REQUEST);
        return caller;
    }

    /**
     * The caller got {@code relayed}, then one error event, then the stream's proper end; the call is
     * recorded 502 with the cost of what was relayed, estimated, in the access log and the usage record.
     */
    private void assertCut(Socket caller, String relayed) throws Exception {
        RawCaller.Answer answer = RawCaller.readChunkedToItsEnd(caller.getInputStream());
        assertEquals(200, answer.status());
        assertTrue(answer.body().startsWith(relayed), answer.body());
        String rest = answer.body().substring(relayed.length());
        assertTrue(rest.startsWith("data: ") && rest.endsWith("\n\n") && rest.indexOf("\n\n") == rest.length() - 2,
                "one event after what was relayed: " + rest);
        JsonObject error = Json.createReader(new StringReader(rest.substring("data: ".length()))).readObject()
                .getJsonObject("error");
        assertEquals("upstream_error", error.getString("type"));
        assertTrue(error.getString("message").contains("openai"), error.toString());

        JsonObject line = CallRecords.accessLogLines(front.accessLog(), 1).getFirst();
        assertEquals(502, line.getInt("status"));
        assertEquals("estimated", line.getString("cost_basis"));
        assertTrue(line.getJsonNumber("cost_usd").bigDecimalValue().signum() > 0, line.toString());
        assertEquals(List.of(502), CallRecords.usageStatuses(front.gateway(), 1));
        try (Connection connection = DriverManager.getConnection(front.gateway().databaseUrl());
             ResultSet row = connection.createStatement().executeQuery(
                     "SELECT cost_basis, cost_nanos FROM usage_records")) {
            assertTrue(row.next());
            assertEquals(ESTIMATED, row.getInt(1));
            assertTrue(row.getLong(2) > 0, "an estimated cost above nothing");
        }
    }
}
