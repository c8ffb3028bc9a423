package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.GatewayInFront;
import java.net.http.HttpResponse;
import java.util.List;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An upstream's redirect goes back to the caller, not followed, with its {@code Location}: without
 * it, a 3xx tells the caller nothing it can act on. A {@code Location} on any other answer, or one
 * that is not a well-formed header value, stays out.
 */
public final class RedirectRelayTest {
    private static final String CHAT = "{\"model\":\"openai/gpt-5\",\"messages\":[]}";

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().environment("OPENAI_API_KEY", "sk-up");

    @Test
    void anUpstream302IsRelayedWithItsLocation() throws Exception {
        front.upstream().enqueue(new MockResponse.Builder().code(302)
                .addHeader("Location", "https://api.example.com/v2/chat/completions")
                .addHeader("Content-Type", "application/json")
                .body("{\"error\":{\"message\":\"moved\",\"type\":\"moved\"}}").build());

        HttpResponse<String> response = front.gateway().chat(CHAT);

        assertEquals(302, response.statusCode(), response.body());
        assertEquals(List.of("https://api.example.com/v2/chat/completions"), response.headers().allValues("Location"));
        assertEquals(1, front.upstream().getRequestCount(), "the redirect is not followed");
    }

    @Test
    void aLocationOnAnAnswerThatIsNoRedirectIsNotRelayed() {
        front.upstream().enqueue(new MockResponse.Builder().code(404)
                .addHeader("Location", "https://api.example.com/elsewhere")
                .addHeader("Content-Type", "application/json")
                .body("{\"error\":{\"message\":\"no such model\",\"type\":\"invalid_request_error\"}}").build());

        HttpResponse<String> response = front.gateway().chat(CHAT);

        assertEquals(404, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("Location").isEmpty(), response.headers().toString());
    }
}
