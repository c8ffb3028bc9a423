package io.aigw.runtime.transport;

import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.DataWriter;
import io.helidon.common.socket.HelidonSocket;
import io.helidon.webclient.api.ClientConnection;
import io.helidon.webclient.api.ConnectionKey;
import io.helidon.webclient.api.TcpClientConnection;
import io.helidon.webclient.api.WebClient;
import java.time.Duration;
import java.util.List;

/**
 * One keep-alive connection to an upstream, handed to Helidon's client as an explicit connection.
 * Helidon writes the request and parses the answer; this class decides where the connection goes
 * afterwards (back to its pool, or closed) and notices whether the upstream answered anything.
 * Every other method is the TCP connection's own.
 *
 * <p>Used by one request at a time; the pool's concurrent deque hands it between threads.
 */
final class PooledConnection implements ClientConnection {
    private static final List<String> ALPN = List.of("http/1.1");

    private final TcpClientConnection tcp;
    private final ConnectionPool pool;
    private DataReader reader;
    private boolean answered;
    private long idleSince;
    /**
     * The socket's read timeout as last set: Helidon sets it for every request, always the same,
     * and each time takes the socket's lock.
     */
    private Duration readTimeoutSet;

    private PooledConnection(TcpClientConnection tcp, ConnectionPool pool) {
        this.tcp = tcp;
        this.pool = pool;
        this.reader = newReader();
    }

    private DataReader newReader() {
        // Reads go through here rather than through the connection's own reader, to see the first byte.
        return DataReader.create(this::receive);
    }

    /** Opens a new connection (through the proxy and TLS handshake the key names) that returns to {@code pool}. */
    static PooledConnection open(WebClient webClient, ConnectionKey key, ConnectionPool pool) {
        // Release and close go through this class, so Helidon's own callbacks stay no-ops.
        TcpClientConnection tcp = TcpClientConnection.create(webClient, key, ALPN, connection -> false,
                connection -> { }).connect();
        return new PooledConnection(tcp, pool);
    }

    private byte[] receive() {
        byte[] bytes = tcp.helidonSocket().get();
        if (bytes != null) {
            answered = true;
        }
        return bytes;
    }

    /**
     * Whether any byte of an answer arrived since the connection last went idle. A reused connection
     * that fails without one was most likely closed by the upstream while idle, before it read the
     * request.
     */
    boolean answered() {
        return answered;
    }

    /** Marks the start of an idle period: the previous answer was read in full. */
    void idleSince(long nanos) {
        idleSince = nanos;
        answered = false;
    }

    long idleSince() {
        return idleSince;
    }

    /** Called by Helidon when the answer was read in full: the connection may carry another request. */
    @Override
    public void releaseResource() {
        // Bytes beyond the answer would be taken for the next answer: such a connection is not reused.
        if (!tcp.isConnected() || reader.available() > 0) {
            tcp.closeResource();
            return;
        }
        // Each answer gets a new reader, so that no chain of chunks outlives its answer (package doc).
        reader = newReader();
        if (!pool.offer(this)) {
            tcp.closeResource();
        }
    }

    /** Called by Helidon when the answer was not read in full, and by the pool. */
    @Override
    public void closeResource() {
        tcp.closeResource();
    }

    /** Already connected by {@link #open}: connecting the TCP connection again would open another socket. */
    @Override
    public ClientConnection connect() {
        return this;
    }

    @Override
    public DataReader reader() {
        return reader;
    }

    @Override
    public DataWriter writer() {
        return tcp.writer();
    }

    @Override
    public String channelId() {
        return tcp.channelId();
    }

    @Override
    public HelidonSocket helidonSocket() {
        return tcp.helidonSocket();
    }

    @Override
    public void readTimeout(Duration readTimeout) {
        if (!readTimeout.equals(readTimeoutSet)) {
            tcp.readTimeout(readTimeout);
            readTimeoutSet = readTimeout;
        }
    }

    @Override
    public boolean isConnected() {
        return tcp.isConnected();
    }

    @Override
    public boolean allowExpectContinue() {
        return tcp.allowExpectContinue();
    }

    @Override
    public void allowExpectContinue(boolean allowExpectContinue) {
        tcp.allowExpectContinue(allowExpectContinue);
    }
}
