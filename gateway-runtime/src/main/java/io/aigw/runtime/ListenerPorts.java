package io.aigw.runtime;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.GatewayConfig;
import java.io.IOException;
import java.net.BindException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.UnresolvedAddressException;

/**
 * Checks that the gateway can listen where its settings say before it opens anything: Helidon
 * reports a port it cannot take as a logged stack trace and a server that is not running.
 */
final class ListenerPorts {

    private ListenerPorts() {
    }

    /**
     * @throws ConfigurationException naming the port and its setting when one cannot be listened on
     *                                (another process holds it, or it is privileged)
     */
    static void requireListenable(GatewayConfig.Listener listener) {
        requireListenable(listener.host(), listener.port(), "gateway.port / GATEWAY_PORT");
        listener.observePort().ifPresent(observe -> requireListenable(listener.host(), observe,
                "gateway.observe.port / GATEWAY_OBSERVE_PORT"));
    }

    private static void requireListenable(String host, int port, String setting) {
        if (port == 0) {
            return;
        }
        // As Helidon's listener does, with address reuse: a port whose last connections are in TIME_WAIT is free.
        try (ServerSocketChannel probe = ServerSocketChannel.open()) {
            probe.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            probe.bind(new InetSocketAddress(host, port));
        } catch (BindException e) {
            if (String.valueOf(e.getMessage()).contains("in use")) {
                throw new ConfigurationException("port " + port + " is in use (" + setting + "): stop what listens"
                        + " there, or choose another port.");
            }
            throw new ConfigurationException("cannot listen on " + host + ":" + port + " (" + setting
                    + ", gateway.host): " + e.getMessage() + ".");
        } catch (UnresolvedAddressException e) {
            throw new ConfigurationException("gateway.host '" + host + "' is not a known host name.");
        } catch (IOException e) {
            throw new ConfigurationException("cannot listen on " + host + ":" + port + " (" + setting + "): "
                    + e + ".");
        }
    }
}
