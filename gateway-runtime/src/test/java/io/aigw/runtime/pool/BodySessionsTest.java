package io.aigw.runtime.pool;

import static io.aigw.runtime.pool.UpstreamPoolsTest.key;
import static io.aigw.runtime.pool.UpstreamPoolsTest.start;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.AnthropicUpstream;
import io.aigw.runtime.testing.ResponsesUpstream;
import io.aigw.runtime.testing.TestGateway;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import mockwebserver3.MockResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A session named in the request body, for callers that send no session header: OpenAI's
 * {@code prompt_cache_key}, else its {@code user}, on chat completions, the Responses API and
 * embeddings, and Anthropic's {@code metadata.user_id} on Messages. Each of three keys is a fake
 * upstream of its own; which one answered a turn tells where the gateway sent it.
 */
public final class BodySessionsTest {
    private static final String MESSAGES = "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]";

    private final List<KeyedUpstream> keys = new ArrayList<>();
    private TestGateway gateway;

    @AfterEach
    void stop() {
        if (gateway != null) {
            gateway.close();
        }
        keys.forEach(KeyedUpstream::close);
    }

    @Test
    void aPromptCacheKeyStaysOnOneKeyWhileItIsHealthyAndMovesWhenItCools() throws Exception {
        startOpenAi();
        String body = chat(",\"prompt_cache_key\":\"conversation-42\"");

        for (int turn = 0; turn < 20; turn++) {
            assertEquals(200, post("/api/v1/chat/completions", body).statusCode());
        }
        KeyedUpstream first = keys.stream().filter(key -> key.requests() > 0).findFirst().orElseThrow();
        assertEquals(20, first.requests(), "every turn on one key");
        assertEquals(body.replace("openai/gpt-5", "gpt-5"), first.lastBody(), "the body goes up as it came");

        first.answers(() -> KeyedUpstream.status(429, "Retry-After", "30"));
        for (int turn = 0; turn < 5; turn++) {
            assertEquals(200, post("/api/v1/chat/completions", body).statusCode());
        }
        assertEquals(21, first.requests(), "the cooling key is left after its 429");
        List<Integer> others = keys.stream().filter(key -> key != first).map(KeyedUpstream::requests).toList();
        assertTrue(others.contains(5) && others.contains(0), "the session moved to one other key: " + others);
    }

    @Test
    void differentPromptCacheKeysSpreadOverTheKeysEachStayingOnItsOwn() throws Exception {
        startOpenAi();
        Map<String, KeyedUpstream> first = new HashMap<>();
        for (int session = 0; session < 30; session++) {
            String cacheKey = "conversation-" + session;
            first.put(cacheKey, answering("/api/v1/chat/completions",
                    chat(",\"prompt_cache_key\":\"" + cacheKey + "\"")));
        }
        for (int session = 0; session < 30; session++) {
            String cacheKey = "conversation-" + session;
            assertEquals(first.get(cacheKey).name, answering("/api/v1/chat/completions",
                    chat(",\"prompt_cache_key\":\"" + cacheKey + "\"")).name, cacheKey + " changed keys");
        }
        assertEquals(Set.copyOf(keys), Set.copyOf(first.values()), "30 sessions spread over the three keys");
    }

    @Test
    void userAloneSticksOnEveryOpenAiEndpointThatTakesIt() throws Exception {
        startOpenAi();
        assertOneKeyFor("/api/v1/chat/completions", user -> chat(",\"user\":\"" + user + "\""));
        keys.forEach(key -> key.answers(BodySessionsTest::responsesAnswer));
        assertOneKeyFor("/api/v1/responses", user -> "{\"model\":\"openai/gpt-5\",\"input\":\"Hi\",\"user\":\""
                + user + "\"}");
        assertOneKeyFor("/api/v1/responses", cacheKey -> "{\"model\":\"openai/gpt-5\",\"input\":\"Hi\","
                + "\"prompt_cache_key\":\"" + cacheKey + "\"}");
        keys.forEach(key -> key.answers(BodySessionsTest::embeddingsAnswer));
        assertOneKeyFor("/api/v1/embeddings", user -> "{\"model\":\"openai/text-embedding-3-small\",\"input\":"
                + "\"Hi\",\"user\":\"" + user + "\"}");
    }

    @Test
    void claudeCodesMetadataUserIdSticksOnMessages() throws Exception {
        for (String name : List.of("a1", "a2", "a3")) {
            KeyedUpstream upstream = new KeyedUpstream(name);
            keys.add(upstream);
            upstream.answers(() -> AnthropicUpstream.message(AnthropicUpstream.MESSAGE));
        }
        gateway = start(Map.of(), anthropicKey(0, keys.get(0)), anthropicKey(1, keys.get(1)),
                anthropicKey(2, keys.get(2)));

        // As Claude Code fills it: the user, the account and the session.
        assertOneKeyFor("/anthropic/v1/messages", session -> "{\"model\":\"claude-sonnet-4-5\",\"max_tokens\":1024,"
                + MESSAGES + ",\"metadata\":{\"user_id\":\"user_5f1e_account_8a7c_session_" + session + "\"}}");
    }

    @Test
    void aSessionHeaderBeatsTheBodyAndAPromptCacheKeyBeatsUser() throws Exception {
        startOpenAi();
        Set<KeyedUpstream> underHeader = new HashSet<>();
        Set<KeyedUpstream> underCacheKey = new HashSet<>();
        for (int turn = 0; turn < 20; turn++) {
            String varying = ",\"prompt_cache_key\":\"turn-" + turn + "\",\"user\":\"user-" + turn + "\"";
            underHeader.add(answering(json("/api/v1/chat/completions").header("X-Session-Id", "agent-7")
                    .POST(HttpRequest.BodyPublishers.ofString(chat(varying))).build()));
            underCacheKey.add(answering("/api/v1/chat/completions",
                    chat(",\"user\":\"user-" + turn + "\",\"prompt_cache_key\":\"conversation-42\"")));
        }
        assertEquals(1, underHeader.size(), "the header's session held every turn");
        assertEquals(1, underCacheKey.size(), "prompt_cache_key held every turn, whatever the user");
    }

    @Test
    void aBodySessionIsCutAtTheHeadersLengthAndAValueOfAnotherTypeIsTheUpstreamsToJudge() throws Exception {
        startOpenAi();
        String head = "s".repeat(Session.MAX_LENGTH);
        Set<KeyedUpstream> cut = new HashSet<>();
        for (int turn = 0; turn < 10; turn++) {
            cut.add(answering("/api/v1/chat/completions", chat(",\"prompt_cache_key\":\"" + head + turn + "\"")));
        }
        assertEquals(1, cut.size(), "sessions alike in their first " + Session.MAX_LENGTH + " characters");

        String odd = chat(",\"prompt_cache_key\":42,\"user\":{\"id\":\"u\"}");
        HttpResponse<String> response = post("/api/v1/chat/completions", odd);
        assertEquals(200, response.statusCode(), response.body());
        KeyedUpstream answered = keys.stream().filter(key -> key.lastBody() != null
                && key.lastBody().contains("\"prompt_cache_key\":42")).findFirst().orElseThrow();
        assertEquals(odd.replace("openai/gpt-5", "gpt-5"), answered.lastBody());
    }

    /** Twenty turns of a session, {@code body} of its name, land on one key; twenty sessions do not. */
    private void assertOneKeyFor(String path, Function<String, String> body) {
        Set<KeyedUpstream> oneSession = new HashSet<>();
        Set<KeyedUpstream> manySessions = new HashSet<>();
        for (int turn = 0; turn < 20; turn++) {
            oneSession.add(answering(path, body.apply("session-1")));
            manySessions.add(answering(path, body.apply("session-" + (100 + turn))));
        }
        assertEquals(1, oneSession.size(), path + ": every turn of one session on one key");
        assertTrue(manySessions.size() > 1, path + ": twenty sessions on one key, so the field was not read");
    }

    private KeyedUpstream answering(String path, String body) {
        return answering(json(path).POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    /** Sends {@code request}, which must succeed, and returns the key that answered it. */
    private KeyedUpstream answering(HttpRequest request) {
        Map<KeyedUpstream, Integer> before = new HashMap<>();
        keys.forEach(key -> before.put(key, key.requests()));
        HttpResponse<String> response = gateway.send(request);
        assertEquals(200, response.statusCode(), response.body());
        List<KeyedUpstream> called = keys.stream().filter(key -> key.requests() != before.get(key)).toList();
        assertEquals(1, called.size(), "one key called");
        return called.getFirst();
    }

    private HttpResponse<String> post(String path, String body) {
        return gateway.send(json(path).POST(HttpRequest.BodyPublishers.ofString(body)).build());
    }

    private HttpRequest.Builder json(String path) {
        return gateway.request(path).header("Content-Type", "application/json");
    }

    private void startOpenAi() throws Exception {
        for (String name : List.of("k1", "k2", "k3")) {
            keys.add(new KeyedUpstream(name));
        }
        gateway = start(Map.of(), key(0, keys.get(0), 1), key(1, keys.get(1), 1), key(2, keys.get(2), 1));
    }

    private static String chat(String more) {
        return "{\"model\":\"openai/gpt-5\"," + MESSAGES + more + "}";
    }

    private static Map<String, String> anthropicKey(int index, KeyedUpstream upstream) {
        String prefix = "providers.anthropic.keys." + index + ".";
        return Map.of(prefix + "name", upstream.name, prefix + "api-key", upstream.key, prefix + "base-url",
                upstream.baseUrl());
    }

    private static MockResponse responsesAnswer() {
        return ResponsesUpstream.plain("resp_1", "gpt-5", List.of(new ResponsesUpstream.Message("msg_1", "Hi")),
                new ResponsesUpstream.Usage(3, 0, 2, 0));
    }

    private static MockResponse embeddingsAnswer() {
        return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json")
                .body("{\"object\":\"list\",\"data\":[{\"object\":\"embedding\",\"index\":0,\"embedding\":[0.1]}],"
                        + "\"model\":\"text-embedding-3-small\",\"usage\":{\"prompt_tokens\":1,\"total_tokens\":1}}")
                .build();
    }
}
