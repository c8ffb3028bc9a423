package io.aigw.runtime.usage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.CannedUpstream;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.LocalPostgres;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.Test;

/**
 * A model id holding a control character is refused at the door, so that it never reaches the usage
 * records: on PostgreSQL, which cannot store U+0000 in text, such a record used to fail the whole
 * batch it shared with other keys' records, and their usage (the source of truth for spend) was lost.
 */
public final class HostileModelIdsTest {
    private static final String ANSWER = "{\"object\":\"chat.completion\",\"model\":\"gpt-5\",\"choices\":[],"
            + "\"usage\":{\"prompt_tokens\":2,\"completion_tokens\":3,\"total_tokens\":5}}";

    @Test
    void nulModelRequestsBesideAnotherKeysAreRefusedAndEveryAnsweredRequestOfTheOtherKeyIsRecorded()
            throws Exception {
        try (LocalPostgres database = LocalPostgres.createDatabase();
             MockWebServer upstream = CannedUpstream.start(200, ANSWER);
             TestGateway gateway = TestGateway.start(Map.of(
                     "gateway.database.url", database.url(),
                     "gateway.database.user", database.user(),
                     "gateway.access-log", "off",
                     "providers.openai.base-url", upstream.url("/v1").toString()),
                     Map.of("OPENAI_API_KEY", "sk-upstream"))) {
            KeysApi api = KeysApi.of(gateway);
            JsonObject honest = api.createKey("honest");
            JsonObject hostile = api.createKey("hostile");

            List<CompletableFuture<HttpResponse<String>>> honestAnswers = new ArrayList<>();
            List<CompletableFuture<HttpResponse<String>>> hostileAnswers = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                honestAnswers.add(chat(gateway, honest.getString("key"), "openai/gpt-5"));
                if (i % 4 == 0) {
                    hostileAnswers.add(chat(gateway, hostile.getString("key"), "openai/a\\u0000b"));
                }
            }

            for (CompletableFuture<HttpResponse<String>> answer : honestAnswers) {
                assertEquals(200, answer.get(30, TimeUnit.SECONDS).statusCode());
            }
            for (CompletableFuture<HttpResponse<String>> answer : hostileAnswers) {
                HttpResponse<String> refused = answer.get(30, TimeUnit.SECONDS);
                assertEquals(400, refused.statusCode(), refused.body());
                JsonObject error = KeysApi.json(refused.body()).getJsonObject("error");
                assertEquals("invalid_request_error", error.getString("type"));
                assertEquals("model", error.getString("param"));
            }
            assertEquals(40, recordsOf(database, honest.getString("id"), 40), "every answered request is recorded");
            assertEquals(0, recordsOf(database, hostile.getString("id"), 0), "a refused request costs nothing");
        }
    }

    private static CompletableFuture<HttpResponse<String>> chat(TestGateway gateway, String key, String model) {
        HttpRequest request = HttpRequest.newBuilder(gateway.uri("/api/v1/chat/completions"))
                .header("Authorization", "Bearer " + key)
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"model\":\"" + model + "\",\"messages\":[]}"))
                .build();
        return gateway.client().sendAsync(request, HttpResponse.BodyHandlers.ofString());
    }

    /**
     * The usage records of key {@code id}, once {@code expected} are there or 10 s have passed (and
     * at least a second, so that records written late are counted too).
     */
    private static int recordsOf(LocalPostgres database, String id, int expected)
            throws SQLException, InterruptedException {
        long start = System.nanoTime();
        int count = count(database, id);
        while ((count < expected || System.nanoTime() - start < TimeUnit.SECONDS.toNanos(1))
                && System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10)) {
            Thread.sleep(50);
            count = count(database, id);
        }
        return count;
    }

    private static int count(LocalPostgres database, String id) throws SQLException {
        try (Connection connection = database.connect();
             PreparedStatement query = connection.prepareStatement("SELECT COUNT(*) FROM usage_records WHERE key_id = ?")) {
            query.setString(1, id);
            try (ResultSet rows = query.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }
}
