package io.aigw.runtime.observe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.CallRecords;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.ScriptedUpstream.Exchange;
import jakarta.json.JsonObject;
import java.io.InputStream;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A stream that began with 200 but did not end whole is recorded with a status that says why, in
 * the usage record, the request counter and the access log alike: 502 when the upstream broke, 504
 * when it went silent (499 for a caller that left and 504 past the total timeout are in
 * {@code CallerLeavesTest} and {@code TotalTimeoutTest}). The access log keeps a caller's strings short.
 */
public final class AnswersCutShortTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final String STREAM = "{\"model\":\"openai/gpt-5\",\"stream\":true,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";
    private static final String EVENT = "data: {\"choices\":[{\"delta\":{\"content\":\"Hel\"}}]}\n\n";

    @RegisterExtension
    final GatewayInFront<ScriptedUpstream> front = GatewayInFront.scripted().withAccessLog()
            .config("gateway.timeouts.idle", "1s");
    private Map<Integer, Double> countedBefore;

    @BeforeEach
    void countBefore() {
        countedBefore = CallRecords.requestsCounted(front.gateway());
    }

    @Test
    void aStreamWhoseUpstreamBrokeIsRecordedAs502() throws Exception {
        CompletableFuture<HttpResponse<InputStream>> response = front.gateway().client().sendAsync(
                chat(STREAM), HttpResponse.BodyHandlers.ofInputStream());
        Exchange exchange = front.upstream().take(WAIT);
        exchange.startStream(200, "text/event-stream");
        exchange.send(EVENT);
        HttpResponse<InputStream> caller = response.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        assertEquals(200, caller.statusCode());
        assertEquals(EVENT, new String(caller.body().readNBytes(EVENT.length()), StandardCharsets.UTF_8));
        exchange.abort();

        caller.body().readAllBytes();
        assertRecorded(502);
    }

    @Test
    void aStreamWhoseUpstreamWentSilentIsRecordedAs504() throws Exception {
        CompletableFuture<HttpResponse<String>> response = send(STREAM);
        Exchange exchange = front.upstream().take(WAIT);
        exchange.startStream(200, "text/event-stream");
        exchange.send(EVENT);

        assertEquals(200, response.get(WAIT.toSeconds(), TimeUnit.SECONDS).statusCode());
        assertRecorded(504);
    }

    @Test
    void aStreamThatEndedWholeIsRecordedAs200() throws Exception {
        CompletableFuture<HttpResponse<String>> response = send(STREAM);
        Exchange exchange = front.upstream().take(WAIT);
        exchange.startStream(200, "text/event-stream");
        exchange.send(EVENT + "data: [DONE]\n\n");
        exchange.end();

        assertEquals(EVENT + "data: [DONE]\n\n", response.get(WAIT.toSeconds(), TimeUnit.SECONDS).body());
        assertRecorded(200);
    }

    @Test
    void theAccessLogCutsTheLongestModelIdToASaneLength() throws Exception {
        String model = "openai/" + "m".repeat(293);
        CompletableFuture<HttpResponse<String>> response = send("{\"model\":\"" + model + "\",\"messages\":[]}");
        Exchange exchange = front.upstream().take(WAIT);
        exchange.startAnswer(200, "application/json", 2);
        exchange.write("{}");
        assertEquals(200, response.get(WAIT.toSeconds(), TimeUnit.SECONDS).statusCode());

        JsonObject line = CallRecords.accessLogLines(front.accessLog(), 1).getFirst();
        assertEquals(model.substring(0, 256) + "...", line.getString("model"));
        assertEquals(model.substring("openai/".length(), 256 + "openai/".length()) + "...",
                line.getString("upstream_model"));
        long longest = Files.readAllLines(front.accessLog()).stream().mapToInt(String::length).max().orElseThrow();
        assertTrue(longest < 1_000, "an access log line of " + longest + " characters");
    }

    private CompletableFuture<HttpResponse<String>> send(String body) {
        return front.gateway().client().sendAsync(chat(body), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest chat(String body) {
        return front.gateway().request("/api/v1/chat/completions").header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private void assertRecorded(int status) {
        assertEquals(List.of(status), CallRecords.usageStatuses(front.gateway(), 1));
        assertEquals(status, CallRecords.accessLogLines(front.accessLog(), 1).getFirst().getInt("status"));
        assertEquals(1, CallRecords.countedSince(countedBefore, CallRecords.requestsCounted(front.gateway()), status));
    }
}
