package io.aigw.runtime.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.CodexCli;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.ResponsesUpstream;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Codex CLI ({@link CodexCli}, unmodified) completing a turn of {@code codex exec}: the model asks
 * for a shell command ({@code exec_command}), Codex runs it and sends its output back, the model
 * answers with text and Codex prints it. First against the fake upstream directly, which shows the
 * fake speaks the Responses API as Codex needs it; then with the gateway as Codex's model provider.
 */
public final class CodexExecTest {
    private static final Duration RUN = Duration.ofSeconds(60);
    private static final String PROMPT = "Work out six times seven with the shell.";
    /** Only a shell that ran it prints 42: the command's own text does not hold it. */
    private static final String COMMAND = "echo codex-ran-$((6*7))";
    private static final String RAN = "codex-ran-42";
    private static final String ANSWER = "The shell says codex-ran-42.";
    private static final String MODEL = "gpt-5-2025-08-07";
    private static final ResponsesUpstream.Usage ASKING = new ResponsesUpstream.Usage(1_200, 1_000, 30, 10);
    private static final ResponsesUpstream.Usage ANSWERING = new ResponsesUpstream.Usage(1_300, 1_200, 12, 0);

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().config("gateway.access-log", "off")
            .config("providers.openai.models.0.id", "gpt-5")
            .config("providers.openai.models.0.pricing.input", "2")
            .config("providers.openai.models.0.pricing.cached-input", "0.5")
            .config("providers.openai.models.0.pricing.output", "8")
            .config("providers.openai.models.0.pricing.reasoning", "16");

    @Test
    void directlyAgainstTheFakeUpstreamCodexRunsTheCommandTheModelAsksForAndPrintsTheModelsAnswer() throws Exception {
        MockWebServer upstream = front.upstream();
        scriptTurn(upstream);

        CodexCli.Run run = CodexCli.exec(upstream.url("/v1").toString(), "sk-direct", "gpt-5", PROMPT, RUN);

        assertEquals(0, run.finished().exitCode(), run.finished().output());
        assertEquals(ANSWER, run.lastMessage().strip(), run.finished().output());
        assertTurnReceived(upstream, "gpt-5", "Bearer sk-direct");
    }

    @Test
    void throughTheGatewayCodexCompletesTheTurnWithTheUpstreamKeyAndTheKeysUsageIsRecordedWithItsCost()
            throws Exception {
        JsonObject key = KeysApi.of(front.gateway()).createKey("codex");
        scriptTurn(front.upstream());

        CodexCli.Run run = CodexCli.exec(front.gateway().uri("/api/v1").toString(), key.getString("key"),
                "openai/gpt-5", PROMPT, RUN);

        assertEquals(0, run.finished().exitCode(), run.finished().output());
        assertEquals(ANSWER, run.lastMessage().strip(), run.finished().output());
        for (RecordedRequest request : assertTurnReceived(front.upstream(), "gpt-5", "Bearer sk-upstream-openai")) {
            assertFalse((request.getHeaders() + request.getBody().utf8()).contains(key.getString("key")),
                    "the workspace key stays at the gateway");
        }
        // Input at $2/M (cached $0.5/M), output at $8/M (reasoning $16/M), in nano-dollars:
        // (200*2000 + 1000*500 + 20*8000 + 10*16000) + (100*2000 + 1200*500 + 12*8000) = 1 220 000 + 896 000.
        assertEquals(KeyUsage.of(2, 2_500, 42, "0.002116"),
                KeyUsage.reported(front.gateway(), key.getString("id"), 2));
    }

    @Test
    void aModelTheKeyMayNotUseEndsCodexWithTheGatewaysRefusalAndNothingReachesTheUpstream() {
        JsonObject key = KeysApi.json(KeysApi.of(front.gateway())
                .create("{\"name\":\"anthropic-only\",\"models\":[\"anthropic/*\"]}").body());

        CodexCli.Run run = CodexCli.exec(front.gateway().uri("/api/v1").toString(), key.getString("key"),
                "openai/gpt-5", PROMPT, RUN);

        assertEquals(1, run.finished().exitCode(), run.finished().output());
        // What the user reads: the status and the gateway's own words.
        assertTrue(run.finished().stderr().contains("403 Forbidden"), run.finished().output());
        assertTrue(run.finished().stderr().contains("This workspace key may not use the model 'openai/gpt-5'"),
                run.finished().output());
        assertEquals(0, front.upstream().getRequestCount(), "no upstream call");
    }

    /** The model's side of the turn: a call of Codex's shell tool, then, given its output, the answer. */
    private static void scriptTurn(MockWebServer upstream) {
        // Not in a login shell: the command needs no profile, and a profile can be slow (pyenv's rehash
        // waits up to a minute for a lock another process holds).
        String arguments = Json.createObjectBuilder().add("cmd", COMMAND).add("login", false).build().toString();
        upstream.enqueue(ResponsesUpstream.streamed("resp_1", MODEL,
                List.of(new ResponsesUpstream.FunctionCall("fc_1", "call_1", "exec_command", arguments)), ASKING));
        upstream.enqueue(ResponsesUpstream.streamed("resp_2", MODEL,
                List.of(new ResponsesUpstream.Message("msg_2", ANSWER)), ANSWERING));
    }

    /**
     * Two streamed requests reached the upstream with {@code model} and {@code authorization}: the
     * first offering Codex's shell tool, the second carrying the call and its output, which holds
     * what the command printed; returns them.
     */
    private static List<RecordedRequest> assertTurnReceived(MockWebServer upstream, String model,
                                                            String authorization)
            throws InterruptedException {
        List<RecordedRequest> received = List.of(take(upstream), take(upstream));
        for (RecordedRequest request : received) {
            assertEquals("POST /v1/responses HTTP/1.1", request.getRequestLine());
            assertEquals(authorization, request.getHeaders().get("Authorization"));
        }
        JsonObject asking = json(received.get(0));
        assertEquals(model, asking.getString("model"));
        assertTrue(asking.getBoolean("stream"), asking.toString());
        assertTrue(asking.getJsonArray("tools").stream().map(JsonValue::asJsonObject)
                .anyMatch(tool -> tool.getString("name", "").equals("exec_command")), "Codex offers its shell tool");

        JsonObject answering = json(received.get(1));
        assertEquals(model, answering.getString("model"));
        List<JsonObject> input = answering.getJsonArray("input").stream().map(JsonValue::asJsonObject).toList();
        JsonObject call = input.get(input.size() - 2);
        JsonObject output = input.get(input.size() - 1);
        assertEquals(List.of("function_call", "call_1", "exec_command"),
                List.of(call.getString("type"), call.getString("call_id"), call.getString("name")));
        assertEquals(List.of("function_call_output", "call_1"),
                List.of(output.getString("type"), output.getString("call_id")));
        assertTrue(output.getString("output").contains(RAN), "the command ran: " + output);
        assertEquals(2, upstream.getRequestCount(), "nothing else was sent: no /models, no retries");
        return received;
    }

    private static RecordedRequest take(MockWebServer upstream) throws InterruptedException {
        RecordedRequest request = upstream.takeRequest(5, TimeUnit.SECONDS);
        assertTrue(request != null, "the upstream received fewer requests than the turn needs");
        return request;
    }

    private static JsonObject json(RecordedRequest request) {
        return Json.createReader(new StringReader(request.getBody().utf8())).readObject();
    }
}
