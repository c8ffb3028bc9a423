package io.aigw.runtime.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aigw.runtime.testing.CallRecords;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.ResponsesUpstream;
import io.aigw.runtime.testing.ResponsesUpstream.Usage;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A Responses answer's usage is recorded and priced exactly: its {@code input_tokens} with the
 * cached ones at the cached rate, its {@code output_tokens} (reasoning included) at the output rate,
 * from a plain answer's {@code usage} or a stream's {@code response.completed}. gpt-5 is priced at
 * USD 1.25 a million input tokens, 0.125 cached and 10 output, so 1 000 input tokens of which 400
 * cached and 500 output tokens of which 200 reasoning cost 600 x 1 250 + 400 x 125 + 500 x 10 000
 * nano-dollars.
 */
public final class ResponsesUsageTest {
    private static final Usage USAGE = new Usage(1000, 400, 500, 200);
    private static final String COSTED = "200 1000 500 1500 priced 5800000";
    private static final List<ResponsesUpstream.Item> OUTPUT = List.of(
            new ResponsesUpstream.Message("msg_1", "Here is the answer"));

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().config("gateway.access-log", "off")
            .config("gateway.cost-header", "true");

    @Test
    void aPlainAnswersUsageIsRecordedWithCachedAndReasoningTokensPriced() {
        front.upstream().enqueue(ResponsesUpstream.plain("resp_1", "gpt-5", OUTPUT, USAGE));

        HttpResponse<String> answer = post("{\"model\":\"openai/gpt-5\",\"input\":\"Hi\"}");

        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals("0.005800000", answer.headers().firstValue("X-Gateway-Cost").orElseThrow());
        assertEquals(List.of(COSTED), CallRecords.costedRecords(front.gateway(), 1));
    }

    @Test
    void aStreamsUsageComesFromItsCompletedEvent() {
        front.upstream().enqueue(ResponsesUpstream.streamed("resp_2", "gpt-5", OUTPUT, USAGE));

        HttpResponse<String> answer = post("{\"model\":\"openai/gpt-5\",\"input\":\"Hi\",\"stream\":true}");

        assertEquals(200, answer.statusCode(), answer.body());
        assertEquals(List.of(COSTED), CallRecords.costedRecords(front.gateway(), 1));
    }

    private HttpResponse<String> post(String body) {
        return front.gateway().send(front.gateway().request("/api/v1/responses")
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }
}
