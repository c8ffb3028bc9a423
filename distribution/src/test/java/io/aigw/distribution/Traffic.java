package io.aigw.distribution;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Light traffic on a running gateway while a test changes its plugins: a chat completion and the
 * model list, one after the other, again and again, each status kept (0 for no answer at all).
 */
final class Traffic implements AutoCloseable {
    private final List<Integer> statuses = new CopyOnWriteArrayList<>();
    private final Thread caller;
    private volatile boolean running = true;

    private Traffic(GatewayProcess gateway, String key, String chat) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        HttpRequest completion = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port()
                        + "/api/v1/chat/completions")).timeout(Duration.ofSeconds(30))
                .header("Authorization", "Bearer " + key).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(chat)).build();
        HttpRequest models = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + gateway.port() + "/api/v1/models"))
                .timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + key).build();
        this.caller = Thread.ofPlatform().daemon().name("traffic").start(() -> {
            while (running) {
                statuses.add(send(client, completion));
                statuses.add(send(client, models));
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    /** Starts sending {@code chat} and asking for the model list, with {@code key}. */
    static Traffic start(GatewayProcess gateway, String key, String chat) {
        return new Traffic(gateway, key, chat);
    }

    private static int send(HttpClient client, HttpRequest request) {
        try {
            return client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
        } catch (Exception e) {
            return 0;
        }
    }

    /** Stops (if it still runs), and returns the status of every request sent. */
    List<Integer> stop() throws InterruptedException {
        running = false;
        caller.join(60_000);
        return new ArrayList<>(statuses);
    }

    @Override
    public void close() throws InterruptedException {
        stop();
    }
}
