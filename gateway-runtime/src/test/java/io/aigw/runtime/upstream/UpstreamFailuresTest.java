package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.LogRecords;
import io.aigw.runtime.testing.TestGateway;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.logging.Level;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An upstream that refuses the gateway's own key, or cannot be reached: the caller learns which
 * provider failed and how, never the upstream's text about its key, nor where the upstream lives.
 */
public final class UpstreamFailuresTest {
    private static final String UPSTREAM_KEY = "sk-upstream-0123456789abcdef5370";
    private static final String CHAT = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().environment("OPENAI_API_KEY", UPSTREAM_KEY);
    /** OpenAI's wording, with the masked key it echoes. */
    private static final String OPENAI_401 = "{\"error\":{\"message\":\"Incorrect API key provided: sk-upstr****5370."
            + " You can find your API key at https://platform.openai.com/account/api-keys.\","
            + "\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"invalid_api_key\"}}";

    @ParameterizedTest(name = "an upstream {0} is the gateway's problem: 502 upstream_auth_failed")
    @ValueSource(ints = {401, 403})
    void aRejectedUpstreamKeyAnswers502NamingTheProviderAndNotTheUpstreamsText(int status) {
        front.upstream().enqueue(new MockResponse.Builder().code(status).addHeader("Content-Type", "application/json")
                .addHeader("WWW-Authenticate", "Bearer realm=\"upstream\"").body(OPENAI_401).build());

        try (LogRecords logs = LogRecords.capture()) {
            HttpResponse<String> response = front.gateway().chat(CHAT);

            assertEquals(502, response.statusCode());
            assertEquals("{\"error\":{\"message\":\"Upstream openai refused the gateway's own API key (" + status
                    + "). This is not about your key: the gateway's operator must fix the key for openai.\","
                    + "\"type\":\"upstream_error\",\"param\":null,\"code\":\"upstream_auth_failed\"}}", response.body());
            assertTrue(response.headers().firstValue("WWW-Authenticate").isEmpty());
            List<String> warnings = logs.messages(Level.WARNING, "io.aigw");
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.getFirst().contains("Upstream openai rejected the gateway's key (" + status + ")")
                    && warnings.getFirst().contains("Incorrect API key provided: sk-upstr****5370."), warnings.getFirst());
        }
    }

    @Test
    void anUpstreamThatEchoesTheWholeKeyHasItMaskedInTheLog() {
        front.upstream().enqueue(new MockResponse.Builder().code(401).body("{\"error\":{\"message\":\"Key " + UPSTREAM_KEY
                + " is not valid\"}}").build());

        try (LogRecords logs = LogRecords.capture()) {
            HttpResponse<String> response = front.gateway().chat(CHAT);

            assertEquals(502, response.statusCode());
            assertFalse(response.body().contains("sk-upstream"), response.body());
            String warning = String.join("\n", logs.messages(Level.WARNING, "io.aigw"));
            assertFalse(warning.contains(UPSTREAM_KEY), warning);
            assertTrue(warning.contains("Key sk-ups****5370 is not valid"), warning);
        }
    }

    @Test
    void anUnreachableUpstreamAnswers502WithoutItsAddress() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        front.replace(TestGateway.start(Map.of("providers.openai.base-url", "http://127.0.0.1:" + closedPort + "/v1"),
                Map.of("OPENAI_API_KEY", UPSTREAM_KEY)));

        try (LogRecords logs = LogRecords.capture()) {
            HttpResponse<String> response = front.gateway().chat(CHAT);

            assertEquals(502, response.statusCode());
            assertEquals("{\"error\":{\"message\":\"Upstream openai is unreachable: the connection was refused.\","
                    + "\"type\":\"upstream_error\",\"param\":null,\"code\":null}}", response.body());
            assertTrue(String.join("\n", logs.messages(Level.WARNING, "io.aigw")).contains("127.0.0.1:" + closedPort),
                    "the operator is told where the gateway tried to connect");
        }
    }

    @Test
    void anUpstreamHostThatDoesNotResolveAnswers502WithoutTheName() {
        front.replace(TestGateway.start(Map.of("providers.openai.base-url", "http://upstream-host.invalid/v1"),
                Map.of("OPENAI_API_KEY", UPSTREAM_KEY)));

        HttpResponse<String> response = front.gateway().chat(CHAT);

        assertEquals(502, response.statusCode());
        assertEquals("{\"error\":{\"message\":\"Upstream openai is unreachable: its host name does not resolve.\","
                + "\"type\":\"upstream_error\",\"param\":null,\"code\":null}}", response.body());
    }

    @ParameterizedTest(name = "a 200 with \"{0}\" to a plain request is the upstream's failure: 502")
    @ValueSource(strings = {"<html><body>Welcome to the hotel wifi</body></html>", "OK", "",
            "data: {\"choices\":[]}\n\n", "[{\"id\":1}]", "{\"choices\":["})
    void aSuccessWhoseBodyIsNotAJsonObjectAnswers502(String body) {
        front.upstream().enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json").body(body).build());

        HttpResponse<String> response = front.gateway().chat(CHAT);

        assertEquals(502, response.statusCode());
        assertEquals("{\"error\":{\"message\":\"Upstream openai answered 200 with a body that is not a JSON"
                + " object.\",\"type\":\"upstream_error\",\"param\":null,\"code\":null}}", response.body());
    }

    @Test
    void aSuccessToAStreamRequestThatIsNotAnEventStreamAnswers502() {
        front.upstream().enqueue(new MockResponse.Builder().addHeader("Content-Type", "application/json; charset=utf-8")
                .body("{\"object\":\"chat.completion\",\"choices\":[]}").build());

        HttpResponse<String> response = front.gateway().chat(
                "{\"model\":\"openai/gpt-5\",\"stream\":true,\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}");

        assertEquals(502, response.statusCode());
        assertEquals("{\"error\":{\"message\":\"Upstream openai answered a stream request with 'application/json;"
                + " charset=utf-8', not an event stream.\",\"type\":\"upstream_error\",\"param\":null,\"code\":null}}",
                response.body());
    }
}
