package io.aigw.runtime.responses;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.CallRecords;
import io.aigw.runtime.testing.GatewayInFront;
import io.aigw.runtime.testing.KeysApi;
import io.aigw.runtime.testing.ResponsesUpstream;
import io.aigw.runtime.testing.ResponsesUpstream.Usage;
import jakarta.json.JsonObject;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The calls about a created response (retrieve, delete, input items, cancel) go to the provider and
 * upstream key that created it, as the caller made them (method, path, query) and with none of the
 * caller's headers; only the key that created it may make them, and any other key gets the 404 an
 * unknown id gets, word for word. A create that continues another key's response is refused alike.
 */
public final class StoredResponsesTest {
    private static final Usage USAGE = new Usage(10, 0, 4, 0);
    private static final String ITEMS = ResponsesUpstream.inputItems("msg_in", "Say hello");

    @RegisterExtension
    final GatewayInFront<MockWebServer> front = GatewayInFront.mockWebServer().forEveryProvider().withAccessLog();

    @Test
    void eachCallGoesToTheProviderThatCreatedTheResponseAsTheCallerMadeIt() throws Exception {
        String alice = key("alice");
        front.upstream().enqueue(ResponsesUpstream.plain("resp_openai1", "gpt-5", hello(), USAGE));
        front.upstream().enqueue(ResponsesUpstream.streamed("resp_xai1", "grok-4", hello(), USAGE));
        assertEquals(200, create(alice, "{\"model\":\"openai/gpt-5\",\"input\":\"Hi\"}").statusCode());
        assertEquals(200, create(alice, "{\"model\":\"xai/grok-4\",\"input\":\"Hi\",\"stream\":true}").statusCode());
        takeAll(2);
        String retrieved = ResponsesUpstream.response("resp_openai1", "gpt-5", hello(), USAGE);
        front.upstream().enqueue(json(retrieved));
        front.upstream().enqueue(json(ITEMS));
        front.upstream().enqueue(json(ResponsesUpstream.response("resp_xai1", "grok-4", hello(), USAGE)));
        front.upstream().enqueue(json(ResponsesUpstream.deleted("resp_openai1")));

        HttpResponse<String> get = send(alice, "/api/v1/responses/resp_openai1?include%5B%5D=reasoning.encrypted_content",
                "GET");
        HttpResponse<String> items = send(alice, "/api/v1/responses/resp_xai1/input_items?limit=2&order=asc", "GET");
        HttpResponse<String> cancel = send(alice, "/api/v1/responses/resp_xai1/cancel", "POST");
        HttpResponse<String> delete = send(alice, "/api/v1/responses/resp_openai1", "DELETE");

        assertEquals(List.of(200, 200, 200, 200), List.of(get.statusCode(), items.statusCode(), cancel.statusCode(),
                delete.statusCode()), get.body() + items.body() + cancel.body() + delete.body());
        assertEquals(retrieved, get.body());
        assertEquals(ITEMS, items.body());
        assertEquals(ResponsesUpstream.deleted("resp_openai1"), delete.body());
        List<RecordedRequest> sent = takeAll(4);
        assertEquals(List.of(
                        "GET /openai/v1/responses/resp_openai1?include%5B%5D=reasoning.encrypted_content HTTP/1.1",
                        "GET /xai/v1/responses/resp_xai1/input_items?limit=2&order=asc HTTP/1.1",
                        "POST /xai/v1/responses/resp_xai1/cancel HTTP/1.1",
                        "DELETE /openai/v1/responses/resp_openai1 HTTP/1.1"),
                sent.stream().map(RecordedRequest::getRequestLine).toList());
        assertEquals(List.of("Bearer sk-upstream-openai", "Bearer sk-upstream-xai", "Bearer sk-upstream-xai",
                "Bearer sk-upstream-openai"), sent.stream().map(r -> r.getHeaders().get("Authorization")).toList());
        for (RecordedRequest request : sent) {
            assertNull(request.getHeaders().get("X-Caller-Secret"), "the caller's headers stay with the gateway");
            assertEquals(0, request.getBodySize());
        }
        List<JsonObject> logged = CallRecords.accessLogLines(front.accessLog(), "/api/v1/responses", 6);
        JsonObject cancelled = logged.get(4);
        assertEquals("/api/v1/responses/resp_xai1/cancel", cancelled.getString("path"), logged.toString());
        assertEquals("POST", cancelled.getString("method"), cancelled.toString());
        assertEquals(200, cancelled.getInt("status"));
    }

    @Test
    void aCallGoesWithTheUpstreamKeyOfThePoolThatCreatedTheResponse() throws Exception {
        // The first key, which a call would fall back to, is all but never chosen to create.
        front.restart(java.util.Map.of("providers.openai.keys.0.name", "team-a",
                "providers.openai.keys.0.api-key", "sk-team-a", "providers.openai.keys.0.weight", "1",
                "providers.openai.keys.1.name", "team-b", "providers.openai.keys.1.api-key", "sk-team-b",
                "providers.openai.keys.1.weight", "1000"));
        String alice = key("alice");
        front.upstream().enqueue(ResponsesUpstream.plain("resp_pooled", "gpt-5", hello(), USAGE));
        assertEquals(200, create(alice, "{\"model\":\"openai/gpt-5\",\"input\":\"Hi\"}").statusCode());
        String createdWith = takeAll(1).get(0).getHeaders().get("Authorization");
        front.upstream().enqueue(json(ITEMS));

        assertEquals(200, send(alice, "/api/v1/responses/resp_pooled/input_items", "GET").statusCode());

        assertEquals(createdWith, takeAll(1).get(0).getHeaders().get("Authorization"));
    }

    @Test
    void anotherKeyGetsTheSame404AsForAnIdThatDoesNotExistAndNothingReachesTheUpstream() throws Exception {
        String alice = key("alice");
        String bob = key("bob");
        front.upstream().enqueue(ResponsesUpstream.plain("resp_alice", "gpt-5", hello(), USAGE));
        assertEquals(200, create(alice, "{\"model\":\"openai/gpt-5\",\"input\":\"Hi\"}").statusCode());
        takeAll(1);

        List<HttpResponse<String>> refused = new ArrayList<>();
        for (String method : List.of("GET", "DELETE")) {
            refused.add(send(bob, "/api/v1/responses/resp_alice", method));
        }
        refused.add(send(bob, "/api/v1/responses/resp_alice/input_items", "GET"));
        refused.add(send(bob, "/api/v1/responses/resp_alice/cancel", "POST"));
        HttpResponse<String> unknown = send(alice, "/api/v1/responses/resp_nobody", "GET");

        String notFound = "{\"error\":{\"message\":\"Response with id 'resp_alice' not found.\","
                + "\"type\":\"invalid_request_error\",\"param\":null,\"code\":\"response_not_found\"}}";
        for (HttpResponse<String> answer : refused) {
            assertEquals(404, answer.statusCode(), answer.body());
            assertEquals(notFound, answer.body());
        }
        HttpResponse<String> streamed = send(alice, "/api/v1/responses/resp_alice?stream=true", "GET");
        assertEquals(400, streamed.statusCode(), streamed.body());
        assertEquals("stream", KeysApi.json(streamed.body()).getJsonObject("error").getString("param"));
        assertEquals(404, unknown.statusCode());
        assertEquals(notFound.replace("resp_alice", "resp_nobody"), unknown.body());
        assertEquals(1, front.upstream().getRequestCount());
    }

    @Test
    void aCreateThatContinuesAnotherKeysResponseIsRefusedAndTheOwnersIsForwarded() throws Exception {
        String alice = key("alice");
        String bob = key("bob");
        front.upstream().enqueue(ResponsesUpstream.plain("resp_first", "gpt-5", hello(), USAGE));
        assertEquals(200, create(alice, "{\"model\":\"openai/gpt-5\",\"input\":\"Hi\"}").statusCode());

        HttpResponse<String> bobs = create(bob, "{\"model\":\"openai/gpt-5\",\"input\":\"And?\","
                + "\"previous_response_id\":\"resp_first\"}");
        assertEquals(404, bobs.statusCode(), bobs.body());
        assertEquals("previous_response_id", KeysApi.json(bobs.body()).getJsonObject("error").getString("param"));
        front.upstream().enqueue(ResponsesUpstream.plain("resp_second", "gpt-5", hello(), USAGE));
        HttpResponse<String> alices = create(alice, "{\"model\":\"openai/gpt-5\",\"input\":\"And?\","
                + "\"previous_response_id\":\"resp_first\"}");

        assertEquals(200, alices.statusCode(), alices.body());
        assertEquals(2, front.upstream().getRequestCount());
    }

    @Test
    void theStoreKeepsWhichKeyAndProviderCreatedEachResponse() throws Exception {
        String alice = key("alice");
        String aliceId = KeysApi.of(front.gateway()).listed().stream().map(v -> v.asJsonObject())
                .filter(k -> k.getString("name").equals("alice")).findFirst().orElseThrow().getString("id");
        front.upstream().enqueue(ResponsesUpstream.streamed("resp_kept", "grok-4", hello(), USAGE));
        assertEquals(200, create(alice, "{\"model\":\"xai/grok-4\",\"input\":\"Hi\",\"stream\":true}").statusCode());

        String row = null;
        for (int i = 0; i < 100 && row == null; i++) {
            try (Connection connection = DriverManager.getConnection(front.gateway().databaseUrl());
                 ResultSet rows = connection.createStatement().executeQuery(
                         "SELECT id, key_id, provider FROM responses")) {
                row = rows.next() ? rows.getString(1) + " " + rows.getString(2) + " " + rows.getString(3) : null;
            }
            if (row == null) {
                Thread.sleep(50);
            }
        }
        assertEquals("resp_kept " + aliceId + " xai", row);
    }

    private static List<ResponsesUpstream.Item> hello() {
        return List.of(new ResponsesUpstream.Message("msg_1", "Hello there"));
    }

    private static MockResponse json(String body) {
        return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json").body(body).build();
    }

    private List<RecordedRequest> takeAll(int count) throws InterruptedException {
        List<RecordedRequest> taken = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            taken.add(front.upstream().takeRequest(5, TimeUnit.SECONDS));
        }
        return taken;
    }

    private String key(String name) {
        return KeysApi.of(front.gateway()).createKey(name).getString("key");
    }

    private HttpResponse<String> create(String key, String body) {
        return front.gateway().send(front.gateway().request("/api/v1/responses")
                .setHeader("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private HttpResponse<String> send(String key, String path, String method) {
        return front.gateway().send(front.gateway().request(path).setHeader("Authorization", "Bearer " + key)
                .header("X-Caller-Secret", "kept-here").method(method, HttpRequest.BodyPublishers.noBody()).build());
    }
}
