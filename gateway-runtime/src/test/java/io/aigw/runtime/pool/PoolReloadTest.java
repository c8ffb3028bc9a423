package io.aigw.runtime.pool;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.ScriptedUpstream;
import io.aigw.runtime.testing.TestGateway;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Keys added to and removed from a provider's pool in the configuration file, applied by a reload
 * without a restart: a stream begun on the removed key finishes on it.
 */
public final class PoolReloadTest {
    private static final String STREAM = "{\"model\":\"openai/gpt-5\",\"stream\":true,"
            + "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]}";

    @TempDir
    Path folder;

    @Test
    void aKeyAddedAndOneRemovedByAReloadWhileAStreamOnTheRemovedOneFinishes() throws Exception {
        Path file = folder.resolve("gateway.yaml");
        try (ScriptedUpstream old = new ScriptedUpstream();
             KeyedUpstream added = new KeyedUpstream("added")) {
            Files.writeString(file, pool("old", "sk-upstream-old", old.baseUrl()));
            try (TestGateway gateway = TestGateway.startWithFile(file, Map.of(), Map.of())) {
                CompletableFuture<HttpResponse<String>> stream = gateway.client().sendAsync(
                        gateway.request("/api/v1/chat/completions").header("Content-Type", "application/json")
                                .POST(HttpRequest.BodyPublishers.ofString(STREAM)).build(),
                        HttpResponse.BodyHandlers.ofString());
                ScriptedUpstream.Exchange call = old.take(Duration.ofSeconds(10));
                assertEquals("Bearer sk-upstream-old", call.header("Authorization"));
                call.startStream(200, "text/event-stream");
                call.send("data: {\"choices\":[{\"delta\":{\"content\":\"one\"}}]}\n\n");

                Files.writeString(file, pool("added", added.key, added.baseUrl()));
                HttpResponse<String> reload = gateway.send(gateway.request("/admin/v1/plugins/reload")
                        .POST(HttpRequest.BodyPublishers.noBody()).build());
                assertEquals(200, reload.statusCode(), reload.body());
                assertTrue(reload.body().contains("\"changed\":[\"openai\"]"), reload.body());

                HttpResponse<String> next = gateway.chat(UpstreamPoolsTest.CHAT);
                assertEquals(200, next.statusCode(), next.body());
                assertEquals(1, added.requests());
                String listed = gateway.send(gateway.request("/admin/v1/upstreams").GET().build()).body();
                assertTrue(listed.contains("\"name\":\"added\"") && !listed.contains("\"name\":\"old\""), listed);

                call.send("data: {\"choices\":[{\"delta\":{\"content\":\"two\"}}]}\n\ndata: [DONE]\n\n");
                call.end();
                HttpResponse<String> finished = stream.get();
                assertEquals("data: {\"choices\":[{\"delta\":{\"content\":\"one\"}}]}\n\n"
                        + "data: {\"choices\":[{\"delta\":{\"content\":\"two\"}}]}\n\ndata: [DONE]\n\n", finished.body());
            }
        }
    }

    private static String pool(String name, String key, String baseUrl) {
        return """
                providers:
                  openai:
                    keys:
                      - name: %s
                        api-key: %s
                        base-url: %s
                """.formatted(name, key, baseUrl);
    }
}
