package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.TestGateway;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** {@code gateway/auto}: providers with a usable key, by priority, next one only when nothing reached the caller. */
public final class AutoFallbackTest {
    private static final String AUTO = "{\"model\":\"gateway/auto\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";

    private final Map<String, MockWebServer> upstreams = new HashMap<>();
    private TestGateway gateway;

    @BeforeEach
    void start() throws IOException {
        for (String provider : new String[] {"openai", "gemini", "anthropic"}) {
            MockWebServer server = new MockWebServer();
            server.start(InetAddress.getLoopbackAddress(), 0);
            upstreams.put(provider, server);
        }
        gateway = startGateway(Map.of(), Map.of());
    }

    /** openai, gemini and anthropic have keys; xai and openrouter have none, so they are not in the chain. */
    private TestGateway startGateway(Map<String, String> extraConfig, Map<String, String> baseUrlOverrides) {
        Map<String, String> config = new HashMap<>(extraConfig);
        Map<String, String> environment = new HashMap<>();
        upstreams.forEach((provider, server) -> {
            config.put("providers." + provider + ".base-url",
                    baseUrlOverrides.getOrDefault(provider, server.url("/v1").toString()));
            environment.put(provider.toUpperCase() + "_API_KEY", "sk-upstream-" + provider);
        });
        return TestGateway.start(config, environment);
    }

    @AfterEach
    void stop() {
        gateway.close();
        upstreams.values().forEach(MockWebServer::close);
    }

    @Test
    void theFirstProviderByPriorityServesWithItsDefaultModel() throws Exception {
        upstreams.get("openai").enqueue(answer("from openai"));

        HttpResponse<String> response = gateway.chat(AUTO);

        assertEquals(200, response.statusCode());
        assertTrue(response.body().contains("from openai"));
        assertEquals("openai", response.headers().firstValue("X-Gateway-Provider").orElseThrow());
        assertEquals("{\"model\":\"gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}",
                upstreams.get("openai").takeRequest(5, TimeUnit.SECONDS).getBody().utf8());
        assertEquals(0, upstreams.get("gemini").getRequestCount());
    }

    @ParameterizedTest(name = "after a {0} the next provider serves")
    @ValueSource(ints = {408, 409, 429, 500, 502, 503})
    void aRetryableFailureMovesOnToTheNextProvider(int status) throws Exception {
        upstreams.get("openai").enqueue(new MockResponse.Builder().code(status)
                .body("{\"error\":{\"message\":\"busy\",\"type\":\"x\",\"param\":null,\"code\":null}}").build());
        upstreams.get("gemini").enqueue(answer("from gemini"));

        HttpResponse<String> response = gateway.chat(AUTO);

        assertEquals(200, response.statusCode());
        assertTrue(response.body().contains("from gemini"));
        assertEquals("gemini", response.headers().firstValue("X-Gateway-Provider").orElseThrow());
        RecordedRequest atGemini = upstreams.get("gemini").takeRequest(5, TimeUnit.SECONDS);
        assertTrue(atGemini.getBody().utf8().startsWith("{\"model\":\"gemini-flash-latest\","));
        assertEquals("Bearer sk-upstream-gemini", atGemini.getHeaders().get("Authorization"));
    }

    @ParameterizedTest(name = "a {0} goes straight back to the caller")
    @ValueSource(ints = {400, 404, 413, 422})
    void aCallersMistakeGoesStraightBack(int status) {
        String error = "{\"error\":{\"message\":\"bad\",\"type\":\"invalid_request_error\",\"param\":null,\"code\":null}}";
        upstreams.get("openai").enqueue(new MockResponse.Builder().code(status).body(error).build());

        HttpResponse<String> response = gateway.chat(AUTO);

        assertEquals(status, response.statusCode());
        assertEquals(error, response.body());
        assertEquals(0, upstreams.get("gemini").getRequestCount());
    }

    @Test
    void anUnreachableProviderIsSkipped() throws IOException {
        gateway.close();
        gateway = startGateway(Map.of(), Map.of("openai", "http://127.0.0.1:" + closedPort() + "/v1"));
        upstreams.get("gemini").enqueue(answer("from gemini"));

        HttpResponse<String> response = gateway.chat(AUTO);

        assertEquals(200, response.statusCode());
        assertEquals("gemini", response.headers().firstValue("X-Gateway-Provider").orElseThrow());
    }

    @Test
    void aProviderSlowerThanTheFirstByteTimeoutIsSkipped() {
        gateway.close();
        gateway = startGateway(Map.of("gateway.timeouts.first-byte", "300ms"), Map.of());
        upstreams.get("openai").enqueue(answer("late").newBuilder().headersDelay(3, TimeUnit.SECONDS).build());
        upstreams.get("gemini").enqueue(answer("from gemini"));

        HttpResponse<String> response = gateway.chat(AUTO);

        assertEquals(200, response.statusCode());
        assertEquals("gemini", response.headers().firstValue("X-Gateway-Provider").orElseThrow());
    }

    @Test
    void aSuccessThatIsNotJsonMovesOnToTheNextProvider() {
        upstreams.get("openai").enqueue(new MockResponse.Builder().addHeader("Content-Type", "text/html")
                .body("<html>Sign in to the network</html>").build());
        upstreams.get("gemini").enqueue(answer("from gemini"));

        HttpResponse<String> response = gateway.chat(AUTO);

        assertEquals(200, response.statusCode());
        assertEquals("gemini", response.headers().firstValue("X-Gateway-Provider").orElseThrow());
    }

    @Test
    void aStreamAnsweredWithJsonMovesOnToTheNextProvider() {
        upstreams.get("openai").enqueue(answer("not a stream"));
        upstreams.get("gemini").enqueue(new MockResponse.Builder().addHeader("Content-Type", "text/event-stream")
                .body("data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n").build());

        HttpResponse<String> response = gateway.chat(
                "{\"model\":\"gateway/auto\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}");

        assertEquals(200, response.statusCode());
        assertEquals("gemini", response.headers().firstValue("X-Gateway-Provider").orElseThrow());
        assertEquals("data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n", response.body());
    }

    @Test
    void aRejectedKeyIsSkippedByLaterRequestsUntilItsCooldownEnds() throws Exception {
        gateway.close();
        gateway = startGateway(Map.of("gateway.auto.key-cooldown", "1s"), Map.of());
        MockWebServer openai = upstreams.get("openai");
        openai.enqueue(new MockResponse.Builder().code(401).body("{\"error\":{\"message\":\"Incorrect API key\","
                + "\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_api_key\"}}").build());
        upstreams.get("gemini").enqueue(answer("first"));
        upstreams.get("gemini").enqueue(answer("second"));

        assertEquals("gemini", gateway.chat(AUTO).headers().firstValue("X-Gateway-Provider").orElseThrow());
        HttpResponse<String> during = gateway.chat(AUTO);
        assertEquals("gemini", during.headers().firstValue("X-Gateway-Provider").orElseThrow());
        assertEquals(1, openai.getRequestCount(), "the rejected key must not be tried during its cool-down");

        Thread.sleep(1200);
        openai.enqueue(answer("openai is back"));
        HttpResponse<String> after = gateway.chat(AUTO);
        assertEquals("openai", after.headers().firstValue("X-Gateway-Provider").orElseThrow());
        assertEquals(2, openai.getRequestCount());
    }

    @Test
    void whenEveryProviderFailsTheLastFailureComesBackListingWhatWasTried() {
        upstreams.get("openai").enqueue(failure(429, "Rate limit reached"));
        upstreams.get("gemini").enqueue(failure(500, "Internal error"));
        upstreams.get("anthropic").enqueue(failure(529, "Overloaded"));

        HttpResponse<String> response = gateway.chat(AUTO);

        assertEquals(529, response.statusCode());
        assertEquals("{\"error\":{\"message\":\"gateway/auto tried every usable provider and all failed:"
                + " openai (429 Rate limit reached); gemini (500 Internal error); anthropic (529 Overloaded).\","
                + "\"type\":\"overloaded_error\",\"param\":null,\"code\":null}}", response.body());
    }

    @Test
    void whenNoProviderAnswersAtAllTheCallerGets502() throws IOException {
        gateway.close();
        String nowhere = "http://127.0.0.1:" + closedPort() + "/v1";
        gateway = startGateway(Map.of(), Map.of("openai", nowhere, "gemini", nowhere, "anthropic", nowhere));

        HttpResponse<String> response = gateway.chat(AUTO);

        assertEquals(502, response.statusCode());
        assertEquals("{\"error\":{\"message\":\"gateway/auto tried every usable provider and all failed:"
                + " openai (unreachable: the connection was refused); gemini (unreachable: the connection was refused);"
                + " anthropic (unreachable: the connection was refused).\",\"type\":\"upstream_error\",\"param\":null,"
                + "\"code\":null}}", response.body());
    }

    @Test
    void withNoUsableKeyAutoAnswers502() {
        gateway.close();
        gateway = TestGateway.start(Map.of(), Map.of());

        HttpResponse<String> response = gateway.chat(AUTO);

        assertEquals(502, response.statusCode());
        assertEquals("{\"error\":{\"message\":\"gateway/auto has no usable provider: no upstream key is configured,"
                + " or every configured key was recently rejected.\",\"type\":\"upstream_error\",\"param\":null,"
                + "\"code\":null}}", response.body());
    }

    @Test
    void aStreamFallsBackBeforeItsFirstByteAndThenStreamsFromTheNextProvider() {
        upstreams.get("openai").enqueue(failure(503, "down"));
        upstreams.get("gemini").enqueue(new MockResponse.Builder()
                .addHeader("Content-Type", "text/event-stream")
                .body("data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n").build());

        HttpResponse<String> response = gateway.chat(
                "{\"model\":\"gateway/auto\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}");

        assertEquals(200, response.statusCode());
        assertEquals("gemini", response.headers().firstValue("X-Gateway-Provider").orElseThrow());
        assertEquals("data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\ndata: [DONE]\n\n", response.body());
    }

    private static MockResponse answer(String content) {
        return new MockResponse.Builder().addHeader("Content-Type", "application/json")
                .body("{\"object\":\"chat.completion\",\"choices\":[{\"message\":{\"content\":\"" + content + "\"}}]}")
                .build();
    }

    private static MockResponse failure(int status, String message) {
        String type = status == 529 ? "overloaded_error" : "server_error";
        return new MockResponse.Builder().code(status).body("{\"error\":{\"message\":\"" + message + "\",\"type\":\""
                + type + "\",\"param\":null,\"code\":null}}").build();
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
