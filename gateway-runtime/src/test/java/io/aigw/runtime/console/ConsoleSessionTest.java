package io.aigw.runtime.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.CannedUpstream;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.JsonObject;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The console's session over real HTTP: what the cookie says, which state changes it refuses
 * (no CSRF token, another origin), how it ends (sign-out, the key's revocation), what a key that
 * is not an admin's may read, the Live stream's bytes, and a console switched off.
 */
public final class ConsoleSessionTest {
    private static final Pattern COOKIE = Pattern.compile("aigw_console=([A-Za-z0-9_-]+)");
    private static final String ANSWER = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"model\":\"gpt-4o-mini\","
            + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"hi\"},"
            + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":1000,\"completion_tokens\":2000,"
            + "\"total_tokens\":3000}}";

    private MockWebServer upstream;
    private TestGateway gateway;

    @BeforeEach
    void start() throws Exception {
        upstream = CannedUpstream.start(200, ANSWER);
        gateway = TestGateway.start(Map.of("providers.openai.base-url", upstream.url("/v1").toString(),
                "gateway.access-log", "off"), Map.of("OPENAI_API_KEY", "sk-upstream"));
    }

    @AfterEach
    void stop() throws Exception {
        gateway.close();
        upstream.close();
    }

    /** A session: its cookie's value and its CSRF token. */
    private record Session(String cookie, String csrf, HttpResponse<String> answer) {
    }

    private Session signIn(String key) {
        HttpResponse<String> answer = gateway.send(HttpRequest.newBuilder(gateway.uri("/console/api/session"))
                .header("Content-Type", "application/json")
                .header("Origin", "http://127.0.0.1:" + gateway.gateway().port())
                .POST(HttpRequest.BodyPublishers.ofString("{\"key\":\"" + key + "\"}")).build());
        assertEquals(200, answer.statusCode(), answer.body());
        Matcher cookie = COOKIE.matcher(answer.headers().firstValue("Set-Cookie").orElseThrow());
        assertTrue(cookie.find());
        return new Session(cookie.group(1), KeysApi.json(answer.body()).getString("csrf"), answer);
    }

    private HttpRequest.Builder withSession(String path, Session session) {
        return HttpRequest.newBuilder(gateway.uri(path)).header("Cookie", "aigw_console=" + session.cookie());
    }

    @Test
    void signingInGivesAnHttpOnlyStrictCookieAndAnswersWithoutTheKey() {
        Session session = signIn(TestGateway.KEY);

        String setCookie = session.answer().headers().firstValue("Set-Cookie").orElseThrow();
        assertTrue(setCookie.contains("; HttpOnly") && setCookie.contains("; SameSite=Strict")
                && setCookie.contains("; Path=/") && setCookie.contains("; Max-Age=1800"), setCookie);
        assertFalse(setCookie.contains("Secure"), "plain HTTP: " + setCookie);
        assertFalse(session.answer().body().contains("sk-gw-"), session.answer().body());
        JsonObject view = KeysApi.json(session.answer().body());
        assertEquals("master", view.getString("key_id"));
        assertTrue(view.getBoolean("admin"));
        assertEquals(200, gateway.send(withSession("/admin/v1/keys", session).build()).statusCode());
    }

    @Test
    void aWrongKeyDoesNotSignIn() {
        HttpResponse<String> answer = gateway.send(HttpRequest.newBuilder(gateway.uri("/console/api/session"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"key\":\"sk-gw-not-a-key-at-all-0000000\"}")).build());

        assertEquals(401, answer.statusCode());
        assertTrue(answer.headers().firstValue("Set-Cookie").isEmpty());
    }

    @Test
    void aStateChangeWithoutTheTokenOrFromAnotherSiteIsRefusedAndChangesNothing() {
        Session session = signIn(TestGateway.KEY);
        String body = "{\"name\":\"forged\"}";

        HttpResponse<String> noToken = gateway.send(withSession("/admin/v1/keys", session)
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
        HttpResponse<String> otherOrigin = gateway.send(withSession("/admin/v1/keys", session)
                .header("X-Console-Csrf", session.csrf()).header("Origin", "http://evil.example")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
        HttpResponse<String> crossSite = gateway.send(withSession("/admin/v1/keys", session)
                .header("X-Console-Csrf", session.csrf()).header("Sec-Fetch-Site", "cross-site")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());

        for (HttpResponse<String> refused : new HttpResponse[] {noToken, otherOrigin, crossSite}) {
            assertEquals(403, refused.statusCode(), refused.body());
            assertTrue(refused.body().contains("\"code\":\"cross_site_request\""), refused.body());
        }
        assertFalse(KeysApi.of(gateway).list().body().contains("forged"));
        HttpResponse<String> sameOrigin = gateway.send(withSession("/admin/v1/keys", session)
                .header("X-Console-Csrf", session.csrf())
                .header("Origin", "http://127.0.0.1:" + gateway.gateway().port())
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
        assertEquals(201, sameOrigin.statusCode(), sameOrigin.body());
    }

    @Test
    void aKeyThatIsNotAnAdminsReadsItselfAloneAndItsSessionEndsWithItsRevocation() {
        JsonObject key = KeysApi.of(gateway).createKey("reader");
        Session session = signIn(key.getString("key"));

        HttpResponse<String> self = gateway.send(withSession("/console/api/self", session).build());
        assertEquals(200, self.statusCode(), self.body());
        assertEquals("reader", KeysApi.json(self.body()).getJsonObject("key").getString("name"));
        assertEquals(403, gateway.send(withSession("/admin/v1/keys", session).build()).statusCode());
        assertEquals(403, gateway.send(withSession("/console/api/live", session).build()).statusCode());

        assertEquals(204, KeysApi.of(gateway).revoke(key.getString("id")).statusCode());

        HttpResponse<String> after = gateway.send(withSession("/console/api/self", session).build());
        assertEquals(401, after.statusCode(), after.body());
        assertTrue(after.body().contains("\"code\":\"session_ended\""), after.body());
        assertTrue(after.headers().firstValue("Set-Cookie").orElseThrow().contains("Max-Age=0"));
    }

    @Test
    void signingOutEndsTheSession() {
        Session session = signIn(TestGateway.KEY);

        HttpResponse<String> out = gateway.send(withSession("/console/api/session", session)
                .header("X-Console-Csrf", session.csrf()).DELETE().build());

        assertEquals(204, out.statusCode());
        assertEquals(401, gateway.send(withSession("/admin/v1/keys", session).build()).statusCode());
    }

    @Test
    void thePageCarriesAStrictContentSecurityPolicyAndNoInlineScriptOrStyle() {
        HttpResponse<String> page = gateway.send(HttpRequest.newBuilder(gateway.uri("/console/")).build());

        assertEquals(200, page.statusCode());
        String policy = page.headers().firstValue("Content-Security-Policy").orElseThrow();
        assertTrue(policy.contains("script-src 'self'") && policy.contains("style-src 'self'")
                && policy.contains("default-src 'none'"), policy);
        assertFalse(policy.contains("unsafe"), policy);
        assertFalse(Pattern.compile("<script(?![^>]*\\ssrc=)|<style|\\sstyle=|\\son[a-z]+=").matcher(page.body())
                .find(), page.body());
        assertEquals(404, gateway.send(HttpRequest.newBuilder(gateway.uri("/console/assets/..%2Fpage.html"))
                .build()).statusCode());
    }

    @Test
    void liveStreamsEachRequestAsItEndsWithItsKeyNameModelStatusTokensAndCost() throws Exception {
        Session session = signIn(TestGateway.KEY);
        JsonObject key = KeysApi.of(gateway).createKey("live-caller");
        HttpResponse<java.io.InputStream> stream = gateway.client().send(withSession("/console/api/live", session)
                .build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals("text/event-stream", stream.headers().firstValue("Content-Type").orElseThrow());

        HttpResponse<String> chat = gateway.send(HttpRequest.newBuilder(gateway.uri("/api/v1/chat/completions"))
                .header("Authorization", "Bearer " + key.getString("key"))
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"openai/gpt-4o-mini\",\"messages\":"
                        + "[{\"role\":\"user\",\"content\":\"hi\"}]}")).build());
        assertEquals(200, chat.statusCode(), chat.body());

        try (BufferedReader lines = new BufferedReader(new InputStreamReader(stream.body(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null && !line.startsWith("data: ")) {
                // retry and id lines
            }
            JsonObject entry = KeysApi.json(line.substring("data: ".length()));
            assertEquals("live-caller", entry.getString("key_name"));
            assertEquals("openai/gpt-4o-mini", entry.getString("model"));
            assertEquals(200, entry.getInt("status"));
            assertEquals(3000, entry.getInt("tokens"));
            assertFalse(line.contains("sk-gw-"), line);
        }
    }

    @Test
    void aConsoleSwitchedOffServesNothing() throws Exception {
        try (TestGateway off = TestGateway.start(Map.of("gateway.console.enabled", "false",
                "gateway.access-log", "off"), Map.of())) {
            assertEquals(404, off.send(HttpRequest.newBuilder(off.uri("/console/")).build()).statusCode());
            assertEquals(404, off.send(HttpRequest.newBuilder(off.uri("/console/api/session"))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"key\":\"" + TestGateway.KEY + "\"}")).build())
                    .statusCode());
        }
    }
}
