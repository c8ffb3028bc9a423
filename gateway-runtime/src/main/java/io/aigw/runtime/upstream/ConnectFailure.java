package io.aigw.runtime.upstream;

import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.util.Locale;
import javax.net.ssl.SSLException;

/**
 * Why an upstream could not be reached, in words that a caller may read: an exception's own text
 * names the upstream's host and port, which stay in the operator's log.
 */
enum ConnectFailure {
    UNKNOWN_HOST("its host name does not resolve"),
    REFUSED("the connection was refused"),
    NOT_OPENED("no connection could be opened"),
    TLS("the TLS handshake failed"),
    BROKEN("the connection broke before its answer was whole");

    private final String description;

    ConnectFailure(String description) {
        this.description = description;
    }

    String describe() {
        return description;
    }

    /** The kind of failure {@code cause} or one of its causes is; {@link #BROKEN} when none says more. */
    static ConnectFailure of(Throwable cause) {
        for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
            switch (t) {
                case UnknownHostException e -> {
                    return UNKNOWN_HOST;
                }
                case SSLException e -> {
                    return TLS;
                }
                case ConnectException e when e.getMessage() != null && e.getMessage().contains("refused") -> {
                    return REFUSED;
                }
                case ConnectException e -> {
                    return NOT_OPENED;
                }
                case NoRouteToHostException e -> {
                    return NOT_OPENED;
                }
                case SocketTimeoutException e when e.getMessage() != null
                        && e.getMessage().toLowerCase(Locale.ROOT).contains("connect") -> {
                    return NOT_OPENED;
                }
                default -> {
                }
            }
        }
        return BROKEN;
    }

    /** The innermost cause's class and text, for the operator's log. */
    static String detail(Throwable cause) {
        Throwable root = cause;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }
}
