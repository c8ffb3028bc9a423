package io.aigw.distribution;

import static io.aigw.distribution.GatewayProcess.env;
import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.Socket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** SIGTERM to the real bin/gateway while a request is on its way. */
public final class GracefulStopIT {
    private static final String MASTER = "sk-gw-graceful-stop-test-0123456789";

    @TempDir
    Path work;

    /**
     * The request's handler is reading its body (the gateway asked for it with 100 Continue) when
     * SIGTERM comes; the body follows once the gateway has stopped listening. The request is still
     * the first to its provider, whose client the gateway builds then: it is served in full.
     */
    @Test
    void aRequestWhoseBodyIsStillComingWhenSigtermArrivesIsServedAndTheExitCodeIsZero() throws Exception {
        Path home = GatewayProcess.copyDistribution(work);
        byte[] body = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"
                .getBytes(UTF_8);
        try (FakeUpstream openai = new FakeUpstream();
             GatewayProcess gateway = GatewayProcess.start(home, env("GATEWAY_MASTER_KEY", MASTER,
                     "OPENAI_API_KEY", "sk-upstream-graceful", "OPENAI_BASE_URL", openai.baseUrl()));
             Socket caller = new Socket("127.0.0.1", gateway.port())) {
            caller.setSoTimeout((int) TimeUnit.SECONDS.toMillis(60));
            OutputStream out = caller.getOutputStream();
            InputStream in = caller.getInputStream();
            out.write(("POST /api/v1/chat/completions HTTP/1.1\r\nHost: gateway\r\nAuthorization: Bearer " + MASTER
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                    + "\r\nExpect: 100-continue\r\n\r\n").getBytes(US_ASCII));
            out.flush();
            assertEquals(List.of("HTTP/1.1 100 Continue", ""), List.of(readLine(in), readLine(in)));

            gateway.terminate();
            awaitNotListening(gateway.port());
            out.write(body);
            out.flush();

            String answer = new String(in.readAllBytes(), UTF_8);
            assertTrue(answer.startsWith("HTTP/1.1 200 OK\r\n"), answer + "\n" + gateway.output());
            assertTrue(answer.endsWith("\r\n\r\n" + FakeUpstream.COMPLETION), answer);
            assertEquals(List.of("{\"model\":\"gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"hi\"}]}"),
                    openai.bodies());
            assertEquals(0, gateway.awaitExit(), gateway.output());
            // The log still works while requests finish: Helidon's last line is in it.
            assertTrue(gateway.output().contains("Helidon WebServer stopped all channels."), gateway.output());
        }
    }

    /** Once the stop has begun, the listening socket is closed: a new connection is refused. */
    private static void awaitNotListening(int port) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            try (Socket probe = new Socket("127.0.0.1", port)) {
                Thread.sleep(20);
            } catch (ConnectException e) {
                return;
            }
        }
        throw new AssertionError("the gateway still listens on " + port + " after SIGTERM");
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("the connection ended in a line: " + line);
            }
            if (b != '\r') {
                line.write(b);
            }
        }
        return line.toString(US_ASCII);
    }
}
