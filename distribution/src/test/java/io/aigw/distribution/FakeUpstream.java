package io.aigw.distribution;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * An OpenAI-compatible upstream on 127.0.0.1 that records what it receives. A plain request gets a
 * canned completion; a streamed one sends its first event, then waits for {@link #releaseStream()}.
 */
final class FakeUpstream implements AutoCloseable {
    static final String COMPLETION = "{\"object\":\"chat.completion\",\"model\":\"upstream-model\",\"choices\":[],"
            + "\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":6,\"total_tokens\":10}}";
    static final String FIRST_EVENT = "data: {\"choices\":[{\"delta\":{\"content\":\"Hi\"}}],\"usage\":null}\n\n";
    static final String LAST_EVENTS = "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":5,"
            + "\"total_tokens\":8}}\n\ndata: [DONE]\n\n";

    private final HttpServer server;
    private final List<String> bodies = new CopyOnWriteArrayList<>();
    private final List<String> authorizations = new CopyOnWriteArrayList<>();
    private final CountDownLatch streamStarted = new CountDownLatch(1);
    private final CountDownLatch streamReleased = new CountDownLatch(1);

    FakeUpstream() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/v1/chat/completions", this::answer);
        server.start();
    }

    String baseUrl() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
    }

    List<String> bodies() {
        return bodies;
    }

    List<String> authorizations() {
        return authorizations;
    }

    boolean awaitStreamStarted() throws InterruptedException {
        return streamStarted.await(30, TimeUnit.SECONDS);
    }

    void releaseStream() {
        streamReleased.countDown();
    }

    private void answer(HttpExchange exchange) throws IOException {
        String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
        bodies.add(body);
        authorizations.add(exchange.getRequestHeaders().getFirst("Authorization"));
        if (!body.contains("\"stream\":true")) {
            send(exchange, "application/json", COMPLETION.getBytes(StandardCharsets.UTF_8));
            return;
        }
        exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
        exchange.sendResponseHeaders(200, 0);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(FIRST_EVENT.getBytes(StandardCharsets.UTF_8));
            out.flush();
            streamStarted.countDown();
            streamReleased.await(30, TimeUnit.SECONDS);
            out.write(LAST_EVENTS.getBytes(StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void send(HttpExchange exchange, String type, byte[] body) throws IOException {
        exchange.getResponseHeaders().add("Content-Type", type);
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        streamReleased.countDown();
        server.stop(0);
    }
}
