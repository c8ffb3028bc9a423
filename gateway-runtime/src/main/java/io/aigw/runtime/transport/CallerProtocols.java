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
 * <p>These are the listener's only selectors; Helidon's own {@code server.protocols} would add
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
    public static List<ServerConnectionSelector> selectors(Config protocols, boolean http2, TransportOptions options) {
        Http1ConnectionSelectorConfig.Builder http1 = Http1ConnectionSelector.builder()
                .config(Http1Config.create(protocols.get("http_1_1")));
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
        // Outermost: the restarting reader reads the caller through the socket this one reads ahead on.
        return options.callerWatch()
                ? selectors.stream().<ServerConnectionSelector>map(WatchableSelector::new).toList()
                : selectors;
    }
}
