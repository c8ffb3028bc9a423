package io.aigw.runtime.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A fake upstream on 127.0.0.1 that a test drives step by step over a raw socket: it answers with
 * chunked SSE events when the test says so, and sees when the gateway closes the connection. This
 * is what MockWebServer's canned responses cannot do: hold events back until the caller got the
 * first ones, and notice a cancelled call.
 */
public final class ScriptedUpstream implements AutoCloseable {
    private final ServerSocket server;
    private final BlockingQueue<Exchange> exchanges = new LinkedBlockingQueue<>();
    private final AtomicInteger closedByPeer = new AtomicInteger();
    private final Thread acceptor;

    public ScriptedUpstream() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        acceptor = Thread.ofPlatform().daemon().name("scripted-upstream").start(this::accept);
    }

    /** The base URL to configure as a provider's {@code base-url}. */
    public String baseUrl() {
        return "http://127.0.0.1:" + server.getLocalPort() + "/v1";
    }

    /** Waits for the next request the gateway sends. */
    public Exchange take(Duration timeout) throws InterruptedException {
        Exchange exchange = exchanges.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (exchange == null) {
            throw new AssertionError("the gateway sent no request within " + timeout);
        }
        return exchange;
    }

    /** The requests received and not yet taken, oldest first. */
    public List<Exchange> pending() {
        return List.copyOf(exchanges);
    }

    /** How many connections the gateway has closed while this upstream still held them open. */
    public int closedByPeer() {
        return closedByPeer.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                exchanges.add(new Exchange(socket));
            } catch (IOException e) {
                return;
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        acceptor.interrupt();
        for (Exchange exchange : exchanges) {
            exchange.socket.close();
        }
    }

    /** One request from the gateway and the answer the test writes, step by step. */
    public final class Exchange {
        private final Socket socket;
        private final InputStream in;
        private final OutputStream out;
        private final String requestLine;
        private final Map<String, String> headers = new LinkedHashMap<>();
        private final byte[] body;

        Exchange(Socket socket) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
            this.requestLine = readLine();
            for (String line = readLine(); !line.isEmpty(); line = readLine()) {
                int colon = line.indexOf(':');
                headers.put(line.substring(0, colon).strip().toLowerCase(Locale.ROOT), line.substring(colon + 1).strip());
            }
            this.body = in.readNBytes(Integer.parseInt(headers.getOrDefault("content-length", "0")));
        }

        public String requestLine() {
            return requestLine;
        }

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        public String body() {
            return new String(body, StandardCharsets.UTF_8);
        }

        /** Sends the status line and headers of a chunked answer. */
        public void startStream(int status, String contentType) throws IOException {
            out.write(("HTTP/1.1 " + status + " OK\r\nContent-Type: " + contentType
                    + "\r\nTransfer-Encoding: chunked\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }

        /**
         * Sends the status line and headers of an answer with neither a length nor chunks, whose body
         * ends when the connection closes (RFC 9112, section 6.3), as Python's {@code http.server}
         * and some proxies send a stream: {@link #write} its bytes, then {@link #close}.
         */
        public void startUnframed(int status, String contentType) throws IOException {
            out.write(("HTTP/1.1 " + status + " OK\r\nContent-Type: " + contentType + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }

        /**
         * Sends the status line and headers of an answer of {@code contentLength} bytes, after which
         * the connection closes: this upstream takes one request per connection.
         */
        public void startAnswer(int status, String contentType, long contentLength) throws IOException {
            out.write(("HTTP/1.1 " + status + " OK\r\nContent-Type: " + contentType + "\r\nContent-Length: "
                    + contentLength + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }

        /** Sends bytes as they are, outside any chunk: the body of an answer with a Content-Length. */
        public void write(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }

        /** Sends bytes as one chunk. */
        public void send(String text) throws IOException {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            out.write((Integer.toHexString(bytes.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(bytes);
            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }

        /** Ends the chunked body. */
        public void end() throws IOException {
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
        }

        /**
         * Closes the connection in good order, every byte written delivered: before the end of a body
         * whose length was announced, the upstream stopped short.
         */
        public void close() throws IOException {
            socket.close();
        }

        /** Drops the connection without ending the body, as a crashed upstream would. */
        public void abort() throws IOException {
            socket.setSoLinger(true, 0);
            socket.close();
        }

        /**
         * Sends {@code event} every 20 ms, as a generating model would, until the gateway hangs up;
         * true when it did within the timeout.
         */
        public boolean keepStreamingUntilClosed(String event, Duration timeout) throws IOException {
            return keepSendingUntilClosed(() -> send(event), timeout);
        }

        /**
         * Writes {@code text} (no chunk framing) every 20 ms, as an upstream dripping a body would,
         * until the gateway hangs up; true when it did within the timeout.
         */
        public boolean keepWritingUntilClosed(String text, Duration timeout) throws IOException {
            return keepSendingUntilClosed(() -> write(text), timeout);
        }

        private boolean keepSendingUntilClosed(Step step, Duration timeout) throws IOException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                try {
                    step.run();
                } catch (IOException e) {
                    return awaitClosedByPeer(Duration.ofSeconds(1));
                }
                if (awaitClosedByPeer(Duration.ofMillis(20))) {
                    return true;
                }
            }
            return false;
        }

        /** Waits until the gateway closes this connection; true when it did within the timeout. */
        public boolean awaitClosedByPeer(Duration timeout) throws IOException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (System.nanoTime() < deadline) {
                socket.setSoTimeout(100);
                try {
                    if (in.read() < 0) {
                        closedByPeer.incrementAndGet();
                        return true;
                    }
                } catch (SocketTimeoutException e) {
                    // Nothing yet: the connection is still open; keep waiting.
                } catch (IOException e) {
                    closedByPeer.incrementAndGet();
                    return true;
                }
            }
            return false;
        }

        private interface Step {
            void run() throws IOException;
        }

        private String readLine() throws IOException {
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            for (int b = in.read(); b >= 0 && b != '\n'; b = in.read()) {
                if (b != '\r') {
                    line.write(b);
                }
            }
            return line.toString(StandardCharsets.US_ASCII);
        }
    }
}
