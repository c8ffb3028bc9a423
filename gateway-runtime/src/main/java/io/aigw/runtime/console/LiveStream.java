package io.aigw.runtime.console;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.error.Jsons;
import io.aigw.runtime.observe.RecentExchanges;
import io.helidon.http.HeaderName;
import io.helidon.http.HeaderNames;
import io.helidon.http.Status;
import io.helidon.webserver.http.Handler;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code GET /console/api/live}: the exchanges that end, as server-sent events, for admin
 * sessions. It starts with the last ones the ring holds (or after the {@code Last-Event-ID} a
 * reconnecting browser sends) and polls the ring, so the request path never waits on a reader.
 * A stream ends when the gateway stops, when its session does (checked at each heartbeat), or
 * after a while, when the browser reconnects where it left.
 */
final class LiveStream implements Handler {
    private static final HeaderName LAST_EVENT_ID = HeaderNames.create("Last-Event-ID");
    private static final int BACKLOG = 100;
    private static final long POLL_MILLIS = 200;
    private static final long HEARTBEAT_MILLIS = 5_000;
    private static final long LIFETIME_MILLIS = 300_000;

    private final RecentExchanges ring;
    private final ConsoleSessions sessions;

    LiveStream(RecentExchanges ring, ConsoleSessions sessions) {
        this.ring = ring;
        this.sessions = sessions;
    }

    /** One exchange as the Live page shows it: never a key, only its id and name. */
    record LiveEntry(long id, long at, String keyId, String keyName, String model, int status, long latencyMs,
                     long tokens, String costUsd) {
        static LiveEntry of(RecentExchanges.Entry entry) {
            return new LiveEntry(entry.sequence(), entry.endedAtMillis(), entry.keyId(), entry.keyName(),
                    entry.model(), entry.status(), entry.latencyMillis(), entry.totalTokens(),
                    entry.cost() == null ? null : entry.cost().toString());
        }
    }

    @Override
    public void handle(ServerRequest request, ServerResponse response) {
        ConsoleSessions.SignedIn signedIn = request.context().get(ConsoleSessions.SignedIn.class).orElseThrow();
        if (!signedIn.session().admin()) {
            throw new ApiException(new ApiError(Status.FORBIDDEN_403, "Live traffic is for admin keys.",
                    "permission_error", null, "insufficient_permissions"));
        }
        long from = request.headers().first(LAST_EVENT_ID).map(LiveStream::after)
                .orElse(Math.max(0, ring.next() - BACKLOG));
        String cookie = request.headers().cookies().get(SessionGate.COOKIE);
        response.header(HeaderNames.CONTENT_TYPE, "text/event-stream");
        response.header(HeaderNames.CACHE_CONTROL, "no-store");
        long started = System.currentTimeMillis();
        long beat = started;
        try (OutputStream out = response.outputStream()) {
            out.write("retry: 1000\n\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            while (!ring.closed() && System.currentTimeMillis() - started < LIFETIME_MILLIS) {
                var entries = ring.since(from);
                for (RecentExchanges.Entry entry : entries) {
                    out.write(("id: " + entry.sequence() + "\ndata: " + Jsons.BINDING.toJson(LiveEntry.of(entry))
                            + "\n\n").getBytes(StandardCharsets.UTF_8));
                    from = entry.sequence() + 1;
                }
                long now = System.currentTimeMillis();
                if (now - beat >= HEARTBEAT_MILLIS) {
                    if (sessions.find(cookie).isEmpty()) {
                        break;
                    }
                    out.write(": still here\n\n".getBytes(StandardCharsets.US_ASCII));
                    beat = now;
                }
                out.flush();
                Thread.sleep(POLL_MILLIS);
            }
        } catch (IOException e) {
            // The browser went away: nothing to answer.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static long after(String lastEventId) {
        try {
            return Long.parseLong(lastEventId.strip()) + 1;
        } catch (NumberFormatException e) {
            return 0;
        }
    }
}
