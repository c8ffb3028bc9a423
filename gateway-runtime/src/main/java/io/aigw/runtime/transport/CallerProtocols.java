package io.aigw.runtime.transport;

import io.aigw.runtime.transport.TransportOptions.Choice;
import io.helidon.config.Config;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http1.Http1ConnectionSelector;
import io.helidon.webserver.http1.Http1ConnectionSelectorConfig;
import io.helidon.webserver.http2.Http2Config;
import io.helidon.webserver.http2.Http2ConnectionSelector;
import io.helidon.webserver.http2.Http2Upgrader;
import io.helidon.webserver.spi.ServerConnectionSelector;
import java.util.List;

/**
 * The protocols callers may speak on the gateway's port: HTTP/1.1 always; with {@code gateway.http2}
 * also HTTP/2 over plain TCP, for a connection that opens with HTTP/2's preface (prior knowledge, as
 * h2c clients and proxies send it) and by an {@code Upgrade: h2c} from HTTP/1.1.
 *
 * <p>Every HTTP/1.1 connection is read with the deadlines of {@link CallerTimeouts} and ended as
 * RFC 9112 says ({@link CallerSocket}); these are not workarounds that can be switched off, but the
 * front door's rules. These are the listener's only selectors; Helidon's own {@code server.protocols} would add
 * selectors of its own behind them, which is why the gateway refuses that key.
 */
public final class CallerProtocols {
    private CallerProtocols() {
    }

    /**
     * The selectors for the gateway's listener, each set as {@code gateway.protocols.http_1_1} and
     * {@code gateway.protocols.http_2} say ({@code protocols}), with the workarounds {@code options}
     * turns on.
     */
    public static List<ServerConnectionSelector> selectors(Config protocols, boolean http2, TransportOptions options,
                                                           CallerTimeouts timeouts, CallerReserve reserve) {
        Http1Config http1Config = Http1Config.builder()
                // Every header the gateway writes is its own or was checked once (HeaderSyntax); Helidon
                // 4.5 checks each again on every answer unless told not to, as 4.4 did by default.
                .validateResponseHeaders(false)
                // HTTP/1.1 keeps a connection unless told otherwise (RFC 9112, 9.3): an answer's
                // Connection: keep-alive says nothing, and Helidon 4.5 tokenizes that header once
                // more after every answer. HTTP/1.0 callers who ask for it get it (CallerEvents).
                .sendKeepAliveHeader(false)
                // Made by CallerEvents, for the paths that need it.
                .validatePath(false)
                .config(protocols.get("http_1_1"))
                .addReceiveListener(CallerEvents.received(http2))
                .addSendListener(CallerEvents.sent())
                .build();
        Http1ConnectionSelectorConfig.Builder http1 = Http1ConnectionSelector.builder().config(http1Config);
        List<ServerConnectionSelector> selectors;
        if (!http2) {
            selectors = List.of(http1.build());
        } else {
            Http2Config http2Config = Http2Config.create(protocols.get("http_2"));
            ServerConnectionSelector upgradable = http1.addUpgrader(Http2Upgrader.create(http2Config)).build();
            ServerConnectionSelector prefaced = Http2ConnectionSelector.builder().http2Config(http2Config).build();
            selectors = options.protocolSelection() == Choice.GATEWAY
                    ? List.of(new PrefaceSelector(upgradable, prefaced))
                    : List.of(upgradable, prefaced);
        }
        if (options.restartingReader()) {
            selectors = selectors.stream().<ServerConnectionSelector>map(RestartingReaderSelector::new).toList();
        }
        // Above the restarting reader, which reads the caller through the socket this one times.
        selectors = selectors.stream()
                .<ServerConnectionSelector>map(selector -> new GuardedSelector(selector, timeouts, reserve))
                .toList();
        // Outermost: the others read the caller through the socket this one reads ahead on, so that a
        // read ahead, which waits as long as the request is handled, is never timed.
        return options.callerWatch()
                ? selectors.stream().<ServerConnectionSelector>map(WatchableSelector::new).toList()
                : selectors;
    }
}
