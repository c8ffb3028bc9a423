package io.aigw.runtime.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.ClaudeCode;
import io.aigw.runtime.testing.ClientProcess;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.ToolTurnModel;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Claude Code itself, headless ({@code claude -p}), completing a turn that runs a tool: the fake
 * model asks for {@code cat note.txt} with the Bash tool, Claude Code runs it in the test's folder
 * and sends the file's random content back as the {@code tool_result}, and the model's final text
 * quotes it. Its non-essential traffic is off, so the turn's two requests are all it sends. Through
 * the gateway with a workspace key ({@code ANTHROPIC_BASE_URL} and {@code ANTHROPIC_AUTH_TOKEN}, as
 * README says); directly against the fake upstream too, which shows that the fake speaks what
 * Claude Code needs when the gateway's test fails.
 */
public final class ClaudeCodeTest {
    /** Claude Code's start and two streamed answers take a few seconds; a hung turn must not hang the build. */
    private static final Duration TURN = Duration.ofSeconds(60);

    /**
     * The model, as Claude Code names Sonnet 4.5 of itself: a dated snapshot id, which the catalogue
     * prices as the model it is a snapshot of.
     */
    private static final String MODEL = "claude-sonnet-4-5-20250929";

    /** Claude Sonnet 4.5's list prices per million tokens (3, 3.75, 0.30, 15 USD) times the fake's usage, in nano-USD. */
    private static final long COST_NANOS_PER_ANSWER = 100 * 3_000 + 20 * 3_750 + 30 * 300 + 7 * 15_000;

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().alsoFor("anthropic")
            .config("gateway.access-log", "off");

    @TempDir
    Path folder;

    @Test
    void aTurnThatRunsAToolCompletesThroughTheGatewayWithAWorkspaceKeyAndIsRecordedWithItsTokensAndCost()
            throws Exception {
        String note = UUID.randomUUID().toString();
        Files.writeString(folder.resolve("note.txt"), note + "\n");
        JsonObject created = KeysApi.json(KeysApi.of(front.gateway()).create("{\"name\":\"claude-code\"}").body());
        front.upstream().setDispatcher(new ToolTurnModel("cat note.txt"));

        JsonObject result = turn(Map.of("ANTHROPIC_BASE_URL", front.gateway().uri("/anthropic").toString(),
                "ANTHROPIC_AUTH_TOKEN", created.getString("key")));

        assertEquals(ToolTurnModel.ANSWER + note, result.getString("result"), result.toString());
        List<RecordedRequest> received = received(front.upstream());
        assertEquals(2, received.size(), "the tool's request and the answer's, nothing else: " + received);
        for (RecordedRequest request : received) {
            assertEquals("POST", request.getMethod());
            assertEquals("/v1/messages", request.getUrl().encodedPath());
            assertEquals("sk-upstream-anthropic", request.getHeaders().get("x-api-key"), "the gateway's key");
            assertEquals(null, request.getHeaders().get("authorization"), "the workspace key stays behind");
            assertFalse(request.getHeaders().toString().contains(created.getString("key")), "nowhere");
            assertEquals("2023-06-01", request.getHeaders().get("anthropic-version"));
            assertTrue(request.getHeaders().get("anthropic-beta").contains("claude-code-20250219"),
                    "Claude Code's betas passed on: " + request.getHeaders());
            assertEquals(MODEL, json(request.getBody().utf8()).getString("model"));
        }
        assertTrue(received.get(1).getBody().utf8().contains(note), "the tool's result went on to the model");
        ToolTurnModel.Usage each = ToolTurnModel.USAGE;
        String recorded = created.getString("id") + " 200 " + (each.input() + each.cacheWrite() + each.cacheRead())
                + " " + each.output() + " " + COST_NANOS_PER_ANSWER;
        assertEquals(List.of(recorded, recorded), usageRecords(2));
    }

    @Test
    void aTurnThatRunsAToolCompletesAgainstTheFakeUpstreamDirectlyWithoutTheGateway() throws Exception {
        String note = UUID.randomUUID().toString();
        Files.writeString(folder.resolve("note.txt"), note + "\n");
        try (MockWebServer upstream = new MockWebServer()) {
            upstream.setDispatcher(new ToolTurnModel("cat note.txt"));
            upstream.start(InetAddress.getLoopbackAddress(), 0);

            JsonObject result = turn(Map.of("ANTHROPIC_BASE_URL", base(upstream.url("/").toString()),
                    "ANTHROPIC_API_KEY", "sk-ant-direct"));

            assertEquals(ToolTurnModel.ANSWER + note, result.getString("result"), result.toString());
            List<RecordedRequest> received = received(upstream);
            assertEquals(2, received.size(), "the tool's request and the answer's, nothing else: " + received);
            for (RecordedRequest request : received) {
                assertEquals("POST /v1/messages?beta=true HTTP/1.1", request.getRequestLine());
                assertEquals("sk-ant-direct", request.getHeaders().get("x-api-key"));
            }
            assertTrue(received.get(1).getBody().utf8().contains(note), "the tool's result went back to the model");
        }
    }

    /** Runs the turn and returns Claude Code's JSON result, asserted a success of two model calls. */
    private JsonObject turn(Map<String, String> environment) {
        ClientProcess.Finished finished = ClaudeCode.run(folder, environment, TURN, "-p", "What does note.txt say?",
                "--model", MODEL, "--output-format", "json", "--allowedTools", "Bash");
        assertEquals(0, finished.exitCode(), "claude failed: " + finished.stdout() + finished.stderr());
        JsonObject result = json(finished.stdout());
        assertFalse(result.getBoolean("is_error"), result.toString());
        assertEquals(2, result.getInt("num_turns"), "a tool call and the answer after it: " + result);
        assertEquals(JsonValue.EMPTY_JSON_ARRAY, result.getJsonArray("permission_denials"), result.toString());
        JsonObject usage = result.getJsonObject("usage");
        ToolTurnModel.Usage each = ToolTurnModel.USAGE;
        assertEquals(List.of(2 * each.input(), 2 * each.cacheWrite(), 2 * each.cacheRead(), 2 * each.output()),
                List.of(usage.getInt("input_tokens"), usage.getInt("cache_creation_input_tokens"),
                        usage.getInt("cache_read_input_tokens"), usage.getInt("output_tokens")),
                "Claude Code added up both answers' usage as the stream reported it: " + usage);
        return result;
    }

    /** Each usage record as key, status, prompt tokens, completion tokens and cost (null where unknown), once {@code count} are written. */
    private List<String> usageRecords(int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<String> records = new ArrayList<>();
        while (records.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(50);
            records.clear();
            try (Connection connection = DriverManager.getConnection(front.gateway().databaseUrl());
                 ResultSet rows = connection.createStatement().executeQuery("SELECT key_id, status, prompt_tokens,"
                         + " completion_tokens, cost_nanos FROM usage_records ORDER BY recorded_at")) {
                while (rows.next()) {
                    records.add(rows.getString(1) + " " + rows.getInt(2) + " " + rows.getLong(3) + " "
                            + rows.getLong(4) + " " + rows.getObject(5));
                }
            }
        }
        return records;
    }

    private static JsonObject json(String text) {
        return Json.createReader(new StringReader(text)).readObject();
    }

    private static List<RecordedRequest> received(MockWebServer upstream) throws InterruptedException {
        List<RecordedRequest> requests = new ArrayList<>();
        for (RecordedRequest request; (request = upstream.takeRequest(100, TimeUnit.MILLISECONDS)) != null; ) {
            requests.add(request);
        }
        return requests;
    }

    /** The base URL as a user sets it: no trailing slash, since Claude Code adds {@code /v1/messages}. */
    private static String base(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
