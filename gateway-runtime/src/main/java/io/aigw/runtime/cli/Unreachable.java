package io.aigw.runtime.cli;

import java.net.ConnectException;
import java.net.URI;
import java.net.UnknownHostException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.function.Predicate;

/**
 * Why a gateway could not be asked, in words: the JDK's HTTP client throws a
 * {@link ConnectException} without a message for a refused connection, wrapping an
 * {@link UnresolvedAddressException}, also without one, for an unknown host.
 */
final class Unreachable {

    private Unreachable() {
    }

    static String why(Exception failure, URI url) {
        if (inChain(failure, cause -> cause instanceof UnresolvedAddressException
                || cause instanceof UnknownHostException)) {
            return "the host " + url.getHost() + " is unknown (no DNS or hosts entry).";
        }
        if (inChain(failure, HttpConnectTimeoutException.class::isInstance)) {
            return "no connection was made within the time allowed: is " + url.getHost() + " the right host?";
        }
        if (inChain(failure, HttpTimeoutException.class::isInstance)) {
            return "it did not answer within the time allowed.";
        }
        if (failure instanceof ConnectException && failure.getMessage() == null) {
            return "the connection was refused: nothing listens on port " + port(url) + " of " + url.getHost()
                    + "; is the gateway running, and on that port?";
        }
        return failure.getMessage() != null ? failure.getMessage() + " (" + failure.getClass().getSimpleName() + ")"
                : failure.getClass().getName();
    }

    private static boolean inChain(Throwable failure, Predicate<Throwable> test) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (test.test(cause)) {
                return true;
            }
        }
        return false;
    }

    private static int port(URI url) {
        return url.getPort() != -1 ? url.getPort() : "https".equalsIgnoreCase(url.getScheme()) ? 443 : 80;
    }
}
