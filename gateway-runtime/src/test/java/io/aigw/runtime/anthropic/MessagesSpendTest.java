package io.aigw.runtime.anthropic;

import static io.aigw.runtime.anthropic.MessagesErrorsTest.assertAnthropicError;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.aigw.runtime.testing.AnthropicUpstream;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a Messages exchange costs and what a key's policies let through. claude-sonnet-4-5 is priced
 * by its catalogue at USD 3 a million input tokens, 0.30 a million read from the cache, 3.75 a
 * million written into it and 15 a million output tokens; Anthropic's {@code input_tokens} leaves
 * the cache's out, so each count is charged at its own rate and the prompt is the three together.
 */
public final class MessagesSpendTest {
    private static final String COUNT = "{\"model\":\"claude-sonnet-4-5\",\"messages\":[{\"role\":\"user\","
            + "\"content\":\"Hi\"}]}";

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().alsoFor("anthropic")
            .config("gateway.access-log", "off");

    private HttpResponse<String> post(String path, String key, String body) {
        return front.gateway().send(HttpRequest.newBuilder(front.gateway().uri(path)).header("x-api-key", key)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    @Test
    void aWholeAnswersCacheReadsAndWritesArePricedEachAtItsRate() {
        front.upstream().enqueue(AnthropicUpstream.message(AnthropicUpstream.MESSAGE));

        assertEquals(200, post("/anthropic/v1/messages", TestGateway.KEY,
                MessagesRelayTest.body("claude-sonnet-4-5", false)).statusCode());

        // 12 x 3 000 + 2 000 x 300 + 100 x 3 750 + 6 x 15 000 nano-dollars.
        assertEquals(List.of("200 2112 6 2118 1101000"), records(1));
    }

    @Test
    void aStreamsUsageIsMessageStartsInputAndCacheCountsWithMessageDeltasOutput() {
        front.upstream().enqueue(AnthropicUpstream.stream(AnthropicUpstream.STREAM));

        HttpResponse<String> response = post("/anthropic/v1/messages", TestGateway.KEY,
                MessagesRelayTest.body("claude-sonnet-4-5", true));

        assertEquals(AnthropicUpstream.STREAM, response.body());
        // 472 x 3 000 + 20 000 x 300 + 1 000 x 3 750 + 89 x 15 000 nano-dollars.
        assertEquals(List.of("200 21472 89 21561 12501000"), records(1));
    }

    @Test
    void aTokenCountIsFreeAndCountsOnlyAgainstTheKeysRpm() throws Exception {
        // Its tpm and budget leave no room for the Messages request below, and none is needed for a count.
        String key = key("{\"name\":\"counter\",\"rpm\":2,\"tpm\":10,\"budget_usd\":0.000001}");
        front.upstream().enqueue(AnthropicUpstream.message("{\"input_tokens\":2095}"));
        front.upstream().enqueue(AnthropicUpstream.message("{\"input_tokens\":2095}"));

        HttpResponse<String> counted = post("/anthropic/v1/messages/count_tokens", key, COUNT);
        HttpResponse<String> overTpm = post("/anthropic/v1/messages", key,
                MessagesRelayTest.body("claude-sonnet-4-5", false));
        HttpResponse<String> secondCount = post("/anthropic/v1/messages/count_tokens", key, COUNT);
        HttpResponse<String> thirdCount = post("/anthropic/v1/messages/count_tokens", key, COUNT);

        assertEquals(200, counted.statusCode(), counted.body());
        assertEquals("{\"input_tokens\":2095}", counted.body());
        assertAnthropicError(overTpm, 400, "invalid_request_error");
        assertEquals(200, secondCount.statusCode(), secondCount.body());
        assertAnthropicError(thirdCount, 429, "rate_limit_error");
        assertEquals(2, front.upstream().getRequestCount());
        assertEquals(List.of("200 0 0 0 0", "400 0 0 0 0", "200 0 0 0 0", "429 0 0 0 0"), records(4));
    }

    @Test
    void aKeysBudgetRefusesARequestWhoseMaxTokensItCannotPayForUnsent() {
        // max_tokens 1024 at USD 15 a million is up to USD 0.01536, more than the budget.
        String key = key("{\"name\":\"small budget\",\"budget_usd\":0.01}");

        HttpResponse<String> refused = post("/anthropic/v1/messages", key,
                MessagesRelayTest.body("claude-sonnet-4-5", false));

        String message = assertAnthropicError(refused, 429, "rate_limit_error");
        assertEquals(true, message.contains("budget"), message);
        assertEquals(0, front.upstream().getRequestCount());
    }

    private String key(String policy) {
        HttpResponse<String> created = KeysApi.of(front.gateway()).create(policy);
        assertEquals(201, created.statusCode(), created.body());
        return KeysApi.json(created.body()).getString("key");
    }

    /** Each usage record's status, prompt, completion and total tokens and cost in nano-dollars, once {@code count} are written. */
    private List<String> records(int count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<String> found = read();
        while (found.size() < count && System.nanoTime() < deadline) {
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            found = read();
        }
        return found;
    }

    private List<String> read() {
        try (Connection connection = DriverManager.getConnection(front.gateway().databaseUrl());
             ResultSet rows = connection.createStatement().executeQuery("SELECT status, prompt_tokens,"
                     + " completion_tokens, total_tokens, cost_nanos FROM usage_records ORDER BY recorded_at")) {
            List<String> records = new ArrayList<>();
            while (rows.next()) {
                records.add(rows.getInt(1) + " " + rows.getLong(2) + " " + rows.getLong(3) + " " + rows.getLong(4)
                        + " " + rows.getLong(5));
            }
            return records;
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
