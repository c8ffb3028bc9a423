package io.aigw.runtime.pool;

import java.io.IOException;
import java.net.InetAddress;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;

/**
 * The fake upstream of one upstream key: a MockWebServer that answers every request as the test
 * says now (a chat answer naming the key, unless told otherwise), counts the requests that came
 * with its own key (as {@code Authorization: Bearer} or Anthropic's {@code x-api-key}) and keeps
 * the last one's body, and refuses any other key with 400, so that a key sent to the wrong place
 * fails the test.
 */
final class KeyedUpstream implements AutoCloseable {
    final String name;
    final String key;
    private final MockWebServer server = new MockWebServer();
    private final AtomicInteger requests = new AtomicInteger();
    private final AtomicReference<String> lastBody = new AtomicReference<>();
    private final AtomicReference<Supplier<MockResponse>> answer;

    KeyedUpstream(String name) throws IOException {
        this.name = name;
        this.key = "sk-upstream-" + name;
        this.answer = new AtomicReference<>(() -> answer(name));
        server.setDispatcher(new Dispatcher() {
            @Override
            public MockResponse dispatch(RecordedRequest request) {
                if (!("Bearer " + key).equals(request.getHeaders().get("Authorization"))
                        && !key.equals(request.getHeaders().get("x-api-key"))) {
                    return new MockResponse.Builder().code(400).body("{\"error\":{\"message\":\"wrong key\"}}").build();
                }
                lastBody.set(request.getBody() == null ? null : request.getBody().utf8());
                requests.incrementAndGet();
                return answer.get().get();
            }
        });
        server.start(InetAddress.getLoopbackAddress(), 0);
    }

    String baseUrl() {
        return server.url("/v1").toString();
    }

    int requests() {
        return requests.get();
    }

    /** The body of the last request that came with the key, as it arrived. */
    String lastBody() {
        return lastBody.get();
    }

    /** From now on, every request is answered so. */
    void answers(Supplier<MockResponse> next) {
        answer.set(next);
    }

    /** Every request answered as at the start: a chat answer whose content is the key's name. */
    void answersWell() {
        answers(() -> answer(name));
    }

    static MockResponse answer(String content) {
        return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json")
                .body("{\"id\":\"c\",\"object\":\"chat.completion\",\"model\":\"gpt-5\",\"choices\":[{\"index\":0,"
                        + "\"message\":{\"role\":\"assistant\",\"content\":\"" + content + "\"},\"finish_reason\":"
                        + "\"stop\"}],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":2,\"total_tokens\":5}}")
                .build();
    }

    static MockResponse status(int code, String... headers) {
        MockResponse.Builder builder = new MockResponse.Builder().code(code).setHeader("Content-Type", "application/json")
                .body("{\"error\":{\"message\":\"status " + code + "\",\"type\":\"server_error\"}}");
        for (int i = 0; i < headers.length; i += 2) {
            builder.setHeader(headers[i], headers[i + 1]);
        }
        return builder.build();
    }

    @Override
    public void close() {
        server.close();
    }
}
