package io.aigw.runtime.sdk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.AgentsSdk;
import io.aigw.runtime.testing.ClientProcess;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.ResponsesUpstream;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The OpenAI Agents SDK ({@link AgentsSdk}, unmodified) running one agent turn with a tool call,
 * set up as its documentation says for another OpenAI-compatible endpoint: a default OpenAI client
 * with the base URL and key, tracing off, the Responses API. The model asks for the agent's
 * {@code multiply} tool, the SDK runs it and sends its output back, the model answers with text,
 * which is the run's final output; with the run plain and streamed. First against the fake
 * upstream directly, which shows the fake speaks the Responses API as the SDK needs it; then with
 * the gateway as the client's base URL.
 */
public final class AgentsSdkTest {
    private static final Duration RUN = Duration.ofSeconds(45);
    private static final String ANSWER = "Six times seven is 42.";
    private static final String MODEL = "gpt-5-2025-08-07";
    private static final ResponsesUpstream.Usage ASKING = new ResponsesUpstream.Usage(300, 0, 20, 8);
    private static final ResponsesUpstream.Usage ANSWERING = new ResponsesUpstream.Usage(340, 256, 9, 0);

    /**
     * One turn of an agent with one tool; {@code argv}: base URL, model, {@code plain} or
     * {@code stream}; the key from {@code AIGW_API_KEY}. Prints the final output and the tool's calls.
     */
    private static final String TURN = """
            import { Agent, run, tool, setDefaultOpenAIClient, setOpenAIAPI, setTracingDisabled } from '@openai/agents';
            import OpenAI from 'openai';
            import { z } from 'zod';
            const [baseURL, model, mode] = process.argv.slice(2);
            setDefaultOpenAIClient(new OpenAI({ baseURL, apiKey: process.env.AIGW_API_KEY }));
            setOpenAIAPI('responses');
            setTracingDisabled(true);
            const calls = [];
            const multiply = tool({
              name: 'multiply', description: 'Multiplies two numbers',
              parameters: z.object({ a: z.number(), b: z.number() }),
              execute: async ({ a, b }) => { calls.push([a, b]); return String(a * b); },
            });
            const agent = new Agent({ name: 'Calculator', instructions: 'Use the tool.', model, tools: [multiply] });
            const result = await run(agent, 'What is six times seven?', { stream: mode === 'stream' });
            if (mode === 'stream') {
              await result.completed;
            }
            console.log(JSON.stringify({ finalOutput: result.finalOutput, calls }));
            """;

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().config("gateway.access-log", "off")
            .config("providers.openai.models.0.id", "gpt-5")
            .config("providers.openai.models.0.pricing.input", "2")
            .config("providers.openai.models.0.pricing.cached-input", "0.5")
            .config("providers.openai.models.0.pricing.output", "8")
            .config("providers.openai.models.0.pricing.reasoning", "16");

    @ParameterizedTest
    @ValueSource(strings = {"plain", "stream"})
    void directlyAgainstTheFakeUpstreamTheAgentRunsItsToolAndEndsWithTheModelsAnswer(String mode) throws Exception {
        MockWebServer upstream = front.upstream();
        scriptTurn(upstream, mode);

        JsonObject result = turn(upstream.url("/v1").toString(), "sk-direct", "gpt-5", mode);

        assertEquals(expectedResult(), result);
        assertTurnReceived(upstream, mode, "gpt-5", "Bearer sk-direct");
    }

    @ParameterizedTest
    @ValueSource(strings = {"plain", "stream"})
    void throughTheGatewayTheAgentCompletesTheTurnWithTheUpstreamKeyAndTheKeysUsageIsRecordedWithItsCost(String mode)
            throws Exception {
        JsonObject key = KeysApi.of(front.gateway()).createKey("agents");
        scriptTurn(front.upstream(), mode);

        JsonObject result = turn(front.gateway().uri("/api/v1").toString(), key.getString("key"), "openai/gpt-5", mode);

        assertEquals(expectedResult(), result);
        String upstreamKey = "Bearer sk-upstream-openai";
        for (RecordedRequest request : assertTurnReceived(front.upstream(), mode, "gpt-5", upstreamKey)) {
            assertFalse((request.getHeaders() + request.getBody().utf8()).contains(key.getString("key")),
                    "the workspace key stays at the gateway");
        }
        // Input at $2/M (cached $0.5/M), output at $8/M (reasoning $16/M), in nano-dollars:
        // (300*2000 + 12*8000 + 8*16000) + (84*2000 + 256*500 + 9*8000) = 824 000 + 368 000.
        assertEquals(KeyUsage.of(2, 640, 29, "0.001192"), KeyUsage.reported(front.gateway(), key.getString("id"), 2));
    }

    /** The model's side of the turn: a call of the agent's tool, then, given its output, the answer. */
    private static void scriptTurn(MockWebServer upstream, String mode) {
        List<ResponsesUpstream.Item> asking = List.of(
                new ResponsesUpstream.FunctionCall("fc_1", "call_1", "multiply", "{\"a\":6,\"b\":7}"));
        List<ResponsesUpstream.Item> answering = List.of(new ResponsesUpstream.Message("msg_2", ANSWER));
        if (mode.equals("stream")) {
            upstream.enqueue(ResponsesUpstream.streamed("resp_1", MODEL, asking, ASKING));
            upstream.enqueue(ResponsesUpstream.streamed("resp_2", MODEL, answering, ANSWERING));
        } else {
            upstream.enqueue(ResponsesUpstream.plain("resp_1", MODEL, asking, ASKING));
            upstream.enqueue(ResponsesUpstream.plain("resp_2", MODEL, answering, ANSWERING));
        }
    }

    private static JsonObject turn(String baseUrl, String key, String model, String mode) {
        ClientProcess.Finished finished = AgentsSdk.run(TURN, Map.of("AIGW_API_KEY", key), RUN, baseUrl, model, mode);
        assertEquals(0, finished.exitCode(), finished.output());
        return Json.createReader(new StringReader(finished.stdout())).readObject();
    }

    /** The model's answer as the final output, the tool called once with the model's arguments. */
    private static JsonObject expectedResult() {
        return Json.createObjectBuilder().add("finalOutput", ANSWER)
                .add("calls", Json.createArrayBuilder().add(Json.createArrayBuilder().add(6).add(7))).build();
    }

    /**
     * Two requests reached the upstream with {@code model} and {@code authorization}, streamed or
     * not as the run was: the first offering the tool, the second carrying the call and the tool's
     * output; returns them.
     */
    private static List<RecordedRequest> assertTurnReceived(MockWebServer upstream, String mode, String model,
                                                            String authorization) throws InterruptedException {
        List<RecordedRequest> received = List.of(take(upstream), take(upstream));
        for (RecordedRequest request : received) {
            assertEquals("POST /v1/responses HTTP/1.1", request.getRequestLine());
            assertEquals(authorization, request.getHeaders().get("Authorization"));
            JsonObject body = json(request);
            assertEquals(model, body.getString("model"));
            assertEquals(mode.equals("stream"), body.getBoolean("stream"), body.toString());
        }
        JsonObject asking = json(received.get(0));
        assertEquals(List.of("multiply"), asking.getJsonArray("tools").stream()
                .map(tool -> tool.asJsonObject().getString("name")).toList());

        List<JsonObject> input = json(received.get(1)).getJsonArray("input").stream()
                .map(JsonValue::asJsonObject).toList();
        JsonObject call = input.get(input.size() - 2);
        JsonObject output = input.get(input.size() - 1);
        assertEquals(List.of("function_call", "call_1", "multiply"),
                List.of(call.getString("type"), call.getString("call_id"), call.getString("name")));
        assertEquals(List.of("function_call_output", "call_1", "42"),
                List.of(output.getString("type"), output.getString("call_id"), output.getString("output")));
        assertEquals(2, upstream.getRequestCount(), "nothing else was sent");
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
