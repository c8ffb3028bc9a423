package io.aigw.runtime.testing;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assertions;

/**
 * A Redis of the test's own on a free loopback port, for tests that stop it and start it again:
 * the shared one on 6379 must never be stopped. It keeps nothing on disk. Without
 * {@code redis-server} the test is skipped on a laptop and fails in CI, as {@link LocalPostgres} decides.
 */
public final class PrivateRedis implements AutoCloseable {
    private final int port;
    private Process process;

    private PrivateRedis(int port) {
        this.port = port;
    }

    /** Starts one, or skips/fails the test as described above. */
    public static PrivateRedis start() {
        PrivateRedis redis = new PrivateRedis(freePort());
        redis.startAgain();
        return redis;
    }

    /** What {@code gateway.limits.redis-url} takes. */
    public String url() {
        return "redis://127.0.0.1:" + port;
    }

    /** Starts it on its port again after {@link #stop()}, and waits until it takes connections. */
    public void startAgain() {
        try {
            process = new ProcessBuilder(List.of("redis-server", "--port", Integer.toString(port),
                    "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--daemonize", "no"))
                    .redirectErrorStream(true).redirectOutput(new File("/dev/null")).start();
        } catch (IOException e) {
            LocalPostgres.skipOrFail("redis-server cannot be run: " + e.getMessage(), System.getenv(), e);
        }
        long until = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (!accepts()) {
            if (!process.isAlive() || System.nanoTime() - until > 0) {
                Assertions.fail("redis-server on port " + port + " did not start");
            }
            pause();
        }
    }

    /** Stops it at once, as a crash would, and waits until it is gone. */
    public void stop() {
        process.destroyForcibly();
        try {
            process.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Between two looks at whether it has started: a wait on a condition, not on time. */
    private static void pause() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private boolean accepts() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        if (process != null && process.isAlive()) {
            stop();
        }
    }
}
