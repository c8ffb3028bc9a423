package io.aigw.runtime.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code POST /api/v1/embeddings} through the real server against a fake upstream: relayed byte for
 * byte with only the model changed, its input tokens charged at the shipped price
 * (text-embedding-3-small: USD 0.02 a million, 20 nano-dollars a token) into the usage record, the
 * metrics and the access log, each naming the endpoint; a key's policies hold on it as on chat; a
 * provider without the API, {@code gateway/auto} and a malformed body are refused with 400 before any
 * upstream is called.
 */
public final class EmbeddingsEndpointTest {
    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().forEveryProvider().withAccessLog();

    /** Every member the gateway does not read, in an odd order and form, numbers as written. */
    private static final String BODY = "{ \"input\" : [\"The food was delicious\", \"H\\u00e9 \\\"there\\\"\"],"
            + " \"encoding_format\": \"base64\", \"model\": \"%s\", \"dimensions\": 256.0, \"user\": \"u-1\","
            + " \"x_vendor\": {\"deep\": [1e-7, -0]}, \"stream\": true }";
    private static final String ANSWER = "{\"object\":\"list\",\"data\":[{\"object\":\"embedding\",\"index\":0,"
            + "\"embedding\":\"AAAAAA==\"},{\"object\":\"embedding\",\"index\":1,\"embedding\":\"AACAPw==\"}],"
            + "\"model\":\"text-embedding-3-small\",\"usage\":{\"prompt_tokens\":12,\"total_tokens\":12}}";

    private static final String SMALL_LABELS = "endpoint=\"embeddings\",model=\"openai/text-embedding-3-small\"";

    @Test
    void anEmbeddingsRequestIsRelayedByteForByteAndItsInputTokensAreChargedAtTheModelsPrice() throws Exception {
        front.upstream().enqueue(json(200, ANSWER));
        double countedBefore = metric("gateway_requests_total", SMALL_LABELS);

        HttpResponse<String> response = post(TestGateway.KEY, BODY.formatted("openai/text-embedding-3-small"));

        assertEquals(200, response.statusCode(), response.body());
        assertEquals(ANSWER, response.body());
        RecordedRequest received = front.upstream().takeRequest(5, TimeUnit.SECONDS);
        assertEquals("POST /openai/v1/embeddings HTTP/1.1", received.getRequestLine());
        assertEquals(BODY.formatted("text-embedding-3-small"), received.getBody().utf8());
        assertEquals("Bearer sk-upstream-openai", received.getHeaders().get("Authorization"));
        // 12 tokens at 20 nano-dollars each.
        assertEquals(List.of("embeddings 200 12 0 12 240"), usageRecords(1));
        JsonObject line = awaitLine();
        assertEquals("embeddings", line.getString("endpoint"));
        assertEquals("openai/text-embedding-3-small", line.getString("model"));
        assertEquals(12, line.getInt("prompt_tokens"));
        assertEquals("0.000000240", line.getJsonNumber("cost_usd").bigDecimalValue().toPlainString());
        assertEquals(countedBefore + 1, metric("gateway_requests_total", SMALL_LABELS));
        assertTrue(metric("gateway_cost_usd_total", SMALL_LABELS) > 0);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            anthropic/claude-sonnet-4-5 | anthropic
            xai/grok-4                  | xai""")
    void aProviderWithoutTheEmbeddingsApiIsRefusedWith400AndNeverCalled(String model, String provider)
            throws Exception {
        HttpResponse<String> response = post(TestGateway.KEY, BODY.formatted(model));

        assertEquals(400, response.statusCode());
        assertEquals("{\"error\":{\"message\":\"The model '" + model + "' goes to the provider '" + provider
                + "', which does not serve /api/v1/embeddings on this gateway; use a model of a provider that does"
                + " (GET /api/v1/models).\",\"type\":\"invalid_request_error\",\"param\":\"model\","
                + "\"code\":\"unsupported_endpoint\"}}", response.body());
        assertNull(front.upstream().takeRequest(200, TimeUnit.MILLISECONDS));
        // Refused once it began, as a policy is: recorded once, with no provider and nothing spent.
        assertEquals(List.of("embeddings 400 0 0 0 0"), usageRecords(1));
    }

    @Test
    void gatewayAutoIsRefusedWith400SayingWhy() throws Exception {
        HttpResponse<String> response = post(TestGateway.KEY, BODY.formatted("gateway/auto"));

        assertEquals(400, response.statusCode());
        assertEquals("{\"error\":{\"message\":\"'gateway/auto' picks a chat model and cannot embed; name an"
                + " embedding model, such as \\\"openai/text-embedding-3-small\\\" (GET /api/v1/models lists each"
                + " model's kind).\",\"type\":\"invalid_request_error\",\"param\":\"model\",\"code\":null}}",
                response.body());
        assertNull(front.upstream().takeRequest(200, TimeUnit.MILLISECONDS));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            no input              | {"model":"openai/text-embedding-3-small"}                               | input | The request must carry 'input', the text to embed: 'input' must be a string, or a non-empty array of strings, of token ids (whole numbers) or of arrays of token ids.
            an empty array       | {"model":"openai/text-embedding-3-small","input":[]}                    | input | 'input' must not be an empty array: send at least one text or token array.
            a number             | {"model":"openai/text-embedding-3-small","input":42}                    | input | 'input' must be a string, or a non-empty array of strings, of token ids (whole numbers) or of arrays of token ids.
            an object            | {"model":"openai/text-embedding-3-small","input":{"text":"hi"}}         | input | 'input' must be a string, or a non-empty array of strings, of token ids (whole numbers) or of arrays of token ids.
            an empty string      | {"model":"openai/text-embedding-3-small","input":""}                    | input | 'input' must not hold an empty string: there is nothing to embed.
            texts and tokens     | {"model":"openai/text-embedding-3-small","input":["hi",42]}             | input | Every entry of 'input' must be of one kind: 'input' must be a string, or a non-empty array of strings, of token ids (whole numbers) or of arrays of token ids.
            an empty token array | {"model":"openai/text-embedding-3-small","input":[[1,2],[]]}            | input | An array of token ids in 'input' must not be empty.
            a negative token     | {"model":"openai/text-embedding-3-small","input":[5,-1]}                | input | A token id in 'input' must be a whole number of at least zero, not -1.
            a fractional token   | {"model":"openai/text-embedding-3-small","input":[[1.5]]}               | input | A token id in 'input' must be a whole number of at least zero, not 1.5.
            no model             | {"input":"hi"}                                                          | model | The request must name a 'model', such as "openai/text-embedding-3-small".
            a model of no text   | {"model":7,"input":"hi"}                                                | model | 'model' must be a string such as "openai/gpt-5".
            input twice          | {"model":"openai/text-embedding-3-small","input":"a","input":"b"}      | input | The field 'input' appears more than once.
            """)
    void aMalformedBodyIsRefusedWith400NamingTheFieldAndReachesNoUpstreamAndNoRecord(String what, String body,
                                                                                       String param, String message)
            throws Exception {
        HttpResponse<String> response = post(TestGateway.KEY, body);

        assertEquals(400, response.statusCode(), response.body());
        JsonObject error = KeysApi.json(response.body()).getJsonObject("error");
        assertEquals(message, error.getString("message"));
        assertEquals(param, error.getString("param"));
        assertEquals("invalid_request_error", error.getString("type"));
        assertNull(front.upstream().takeRequest(100, TimeUnit.MILLISECONDS));
        // A well-formed request after it is the first and only record.
        front.upstream().enqueue(json(200, ANSWER));
        assertEquals(200, post(TestGateway.KEY, BODY.formatted("openai/text-embedding-3-small")).statusCode());
        assertEquals(List.of("embeddings 200 12 0 12 240"), usageRecords(1));
    }

    @Test
    void aTokenArrayAndArraysOfTokenArraysAreRelayedAsTheyCame() throws Exception {
        for (String input : List.of("[1, 2, 3]", "[[0, 15339], [9906]]", "\"one text\"")) {
            front.upstream().enqueue(json(200, ANSWER));
            String body = "{\"model\":\"gemini/gemini-embedding-001\",\"input\":" + input + "}";

            assertEquals(200, post(TestGateway.KEY, body).statusCode());

            RecordedRequest received = front.upstream().takeRequest(5, TimeUnit.SECONDS);
            assertEquals("POST /gemini/v1/embeddings HTTP/1.1", received.getRequestLine());
            assertEquals("{\"model\":\"gemini-embedding-001\",\"input\":" + input + "}", received.getBody().utf8());
        }
    }

    @Test
    void aKeysAllowListAndRpmHoldOnEmbeddings() throws Exception {
        String key = KeysApi.json(KeysApi.of(front.gateway()).create("{\"name\":\"embedder\","
                + "\"models\":[\"openai/text-embedding-3-small\"],\"rpm\":1}").body()).getString("key");

        HttpResponse<String> notAllowed = post(key, BODY.formatted("openai/text-embedding-3-large"));
        assertEquals(403, notAllowed.statusCode(), notAllowed.body());
        assertEquals("permission_error", KeysApi.json(notAllowed.body()).getJsonObject("error").getString("type"));

        front.upstream().enqueue(json(200, ANSWER));
        assertEquals(200, post(key, BODY.formatted("openai/text-embedding-3-small")).statusCode());
        HttpResponse<String> overRpm = post(key, BODY.formatted("openai/text-embedding-3-small"));
        assertEquals(429, overRpm.statusCode(), overRpm.body());
        assertEquals("rate_limit_exceeded", KeysApi.json(overRpm.body()).getJsonObject("error").getString("code"));
        assertEquals(1, front.upstream().getRequestCount(), "only the admitted request reached the upstream");
    }

    @Test
    void aKeysBudgetIsSpentByWhatEmbeddingsCostAndThenRefusesThem() throws Exception {
        // USD 0.000003 is 3 000 nano-dollars: 150 tokens of text-embedding-3-small.
        String key = KeysApi.json(KeysApi.of(front.gateway()).create("{\"name\":\"budgeted\",\"budget_usd\":0.000003}")
                .body()).getString("key");
        front.upstream().enqueue(json(200, ANSWER.replace("\"prompt_tokens\":12,\"total_tokens\":12",
                "\"prompt_tokens\":140,\"total_tokens\":140")));

        assertEquals(200, post(key, BODY.formatted("openai/text-embedding-3-small")).statusCode());
        usageRecords(1);
        // 2 800 spent: the next request's estimate (its body's bytes over 4, about 60 tokens) does not fit.
        HttpResponse<String> refused = post(key, BODY.formatted("openai/text-embedding-3-small"));

        assertEquals(429, refused.statusCode(), refused.body());
        assertEquals("insufficient_quota", KeysApi.json(refused.body()).getJsonObject("error").getString("code"));
        assertEquals(1, front.upstream().getRequestCount());
    }

    private HttpResponse<String> post(String key, String body) {
        return front.gateway().send(HttpRequest.newBuilder(front.gateway().uri("/api/v1/embeddings"))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build());
    }

    private static MockResponse json(int status, String body) {
        return new MockResponse.Builder().code(status).addHeader("Content-Type", "application/json").body(body)
                .build();
    }

    /** Each usage record as "endpoint status prompt completion total cost_nanos", once {@code count} are written. */
    private List<String> usageRecords(int count) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        List<String> records = readRecords();
        while (records.size() < count && System.nanoTime() < deadline) {
            Thread.sleep(50);
            records = readRecords();
        }
        return records;
    }

    private List<String> readRecords() throws SQLException {
        try (Connection connection = DriverManager.getConnection(front.gateway().databaseUrl());
             ResultSet rows = connection.createStatement().executeQuery("SELECT endpoint, status, prompt_tokens,"
                     + " completion_tokens, total_tokens, cost_nanos FROM usage_records ORDER BY recorded_at")) {
            List<String> records = new ArrayList<>();
            while (rows.next()) {
                records.add(rows.getString(1) + " " + rows.getInt(2) + " " + rows.getLong(3) + " " + rows.getLong(4)
                        + " " + rows.getLong(5) + " " + rows.getString(6));
            }
            return records;
        }
    }

    private JsonObject awaitLine() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (true) {
            List<String> lines = java.nio.file.Files.exists(front.accessLog())
                    ? java.nio.file.Files.readAllLines(front.accessLog()) : List.of();
            for (String line : lines) {
                JsonObject parsed = KeysApi.json(line);
                if (parsed.getString("path").equals("/api/v1/embeddings")) {
                    return parsed;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no access log line for /api/v1/embeddings in " + lines);
            }
            Thread.sleep(50);
        }
    }

    /** The sample of {@code name} whose labels hold {@code labels} as /observe/metrics shows it; 0 before it exists. */
    private double metric(String name, String labels) {
        String metrics = front.gateway().send(HttpRequest.newBuilder(front.gateway().uri("/observe/metrics"))
                .build()).body();
        Matcher sample = Pattern.compile("(?m)^" + name + "\\{([^}]*)} (\\S+)$").matcher(metrics);
        double sum = 0;
        while (sample.find()) {
            if (sample.group(1).contains(labels)) {
                sum += Double.parseDouble(sample.group(2));
            }
        }
        return sum;
    }
}
