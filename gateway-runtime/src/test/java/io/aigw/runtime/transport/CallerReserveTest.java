package io.aigw.runtime.transport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.RawCaller;
import io.aigw.runtime.testing.RawCaller.Answer;
import io.aigw.runtime.testing.TestGateway;
import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Health and metrics are answered while idle callers hold every connection callers may hold: the
 * listener keeps a reserve beyond {@code server.max-tcp-connections} for {@code /observe/*}.
 */
final class CallerReserveTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final int CALLERS = 4;
    private static final String LIVE = "GET /observe/health/live HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    private static final String MODELS = "GET /api/v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer "
            + TestGateway.KEY + "\r\n\r\n";

    @Test
    void healthIsAnsweredWhileIdleCallersHoldEveryCallersConnection() throws Exception {
        List<Socket> idle = new ArrayList<>();
        try (TestGateway gateway = TestGateway.start(Map.of("server.max-tcp-connections", Integer.toString(CALLERS)),
                Map.of())) {
            for (int i = 0; i < CALLERS; i++) {
                idle.add(connect(gateway));
            }
            // Once the idle connections hold the callers' share, a caller's request is refused...
            long end = System.nanoTime() + WAIT.toNanos();
            Answer refused;
            do {
                refused = ask(gateway, MODELS);
            } while (refused.status() == 200 && System.nanoTime() < end);
            assertEquals(503, refused.status(), refused.body());
            assertTrue(refused.body().startsWith("{\"error\":{"), refused.body());
            assertEquals("1", refused.headers().get("retry-after"));

            // ... and health and metrics are answered.
            Answer live = ask(gateway, LIVE);
            assertEquals(200, live.status(), live.body());
            Answer metrics = ask(gateway, LIVE.replace("/observe/health/live", "/observe/metrics"));
            assertEquals(200, metrics.status());
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
        }
    }

    @Test
    void healthIsAnsweredWhileIdleConnectionsHoldTheReserveToo() throws Exception {
        List<Socket> idle = new ArrayList<>();
        try (TestGateway gateway = TestGateway.start(Map.of("server.max-tcp-connections", Integer.toString(CALLERS)),
                Map.of())) {
            for (int i = 0; i < CALLERS + CallerReserve.RESERVE; i++) {
                idle.add(connect(gateway));
            }
            // A connection in the reserve that sends nothing is let go within a second (the callers'
            // wait for a first request is 30 s), so a health check gets in.
            Answer live = ask(gateway, LIVE);
            assertEquals(200, live.status(), live.body());
        } finally {
            for (Socket socket : idle) {
                socket.close();
            }
        }
    }

    private static Answer ask(TestGateway gateway, String request) throws IOException {
        try (Socket caller = connect(gateway)) {
            RawCaller.write(caller, request.getBytes(StandardCharsets.ISO_8859_1));
            return RawCaller.readAnswer(caller.getInputStream());
        }
    }

    private static Socket connect(TestGateway gateway) throws IOException {
        Socket socket = new Socket("127.0.0.1", gateway.gateway().port());
        socket.setSoTimeout((int) WAIT.toMillis());
        return socket;
    }
}
