package io.aigw.runtime.server;

import io.helidon.common.buffers.BufferData;
import io.helidon.config.Config;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.http1.Http1ConnectionSelectorConfig;
import io.helidon.webserver.http2.Http2Config;
import io.helidon.webserver.http2.Http2ConnectionSelector;
import io.helidon.webserver.http2.Http2Upgrader;
import io.helidon.webserver.spi.ServerConnection;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The protocols callers may speak on the gateway's port. HTTP/1.1 always; with {@code gateway.http2}
 * also HTTP/2 over plain TCP: for a connection that opens with HTTP/2's preface (prior knowledge, as
 * h2c clients and proxies send it), and by an {@code Upgrade: h2c} from HTTP/1.1.
 *
 * <p>HTTP/2 is off unless asked for because Helidon (4.4) tells a handler nothing of a stream its
 * caller resets while keeping the connection: such a stream's upstream call runs on to its end.
 * Closing the connection does cancel every stream on it.
 *
 * <p>Helidon, given both protocols, picks by asking each whether it recognises the connection's
 * first bytes, and closes a connection neither claims without a word: a request line without a
 * version, or one longer than HTTP/1.1's limit on it, then got no answer. Here HTTP/1.1 takes every
 * connection that is not HTTP/2 ({@link FirstBytesConnection}), so such a caller gets HTTP/1.1's
 * 400 or 414, as with HTTP/1.1 alone.
 *
 * <p>Either protocol reads the connection through a {@link RestartingDataReader}, which keeps
 * Helidon's reader from tying each request's bytes to the ones before it.
 */
public final class CallerProtocols implements ServerConnectionSelector {
    private final ServerConnectionSelector http1;
    private final Optional<ServerConnectionSelector> http2;
    private final Set<String> applicationProtocols;

    private CallerProtocols(ServerConnectionSelector http1, Optional<ServerConnectionSelector> http2) {
        this.http1 = http1;
        this.http2 = http2;
        Set<String> protocols = new HashSet<>(http1.supportedApplicationProtocols());
        http2.ifPresent(selector -> protocols.addAll(selector.supportedApplicationProtocols()));
        this.applicationProtocols = Set.copyOf(protocols);
    }

    /**
     * The one selector of the gateway's listener: HTTP/1.1 alone, or with {@code http2} both, each
     * set as {@code gateway.protocols.http_1_1} and {@code gateway.protocols.http_2} say
     * ({@code protocols}). Helidon's own {@code server.protocols} would add selectors of Helidon's.
     */
    public static CallerProtocols forCallers(Config protocols, boolean http2) {
        Http1ConnectionSelectorConfig.Builder http1 = Http1ConnectionSelector.builder()
                .config(Http1Config.create(protocols.get("http_1_1")));
        if (!http2) {
            return new CallerProtocols(http1.build(), Optional.empty());
        }
        Http2Config http2Config = Http2Config.create(protocols.get("http_2"));
        return new CallerProtocols(http1.addUpgrader(Http2Upgrader.create(http2Config)).build(),
                Optional.of(Http2ConnectionSelector.builder().http2Config(http2Config).build()));
    }

    /**
     * Claims every connection at once. Helidon asks the listener's own selectors first and may add
     * discovered ones behind them: a plain HTTP/1.1 selector here, which does not claim a malformed
     * request line, still had such connections closed unanswered.
     */
    @Override
    public int bytesToIdentifyConnection() {
        return 0;
    }

    @Override
    public Support supports(BufferData request) {
        return Support.SUPPORTED;
    }

    @Override
    public Set<String> supportedApplicationProtocols() {
        return applicationProtocols;
    }

    @Override
    public ServerConnection connection(ConnectionContext context) {
        ConnectionContext connection = new RestartingReaderConnection(context);
        return http2.<ServerConnection>map(selector -> new FirstBytesConnection(connection, http1, selector))
                .orElseGet(() -> http1.connection(connection));
    }
}
