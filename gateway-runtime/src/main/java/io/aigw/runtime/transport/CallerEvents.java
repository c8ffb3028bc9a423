package io.aigw.runtime.transport;

import io.helidon.common.uri.UriPath;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Headers;
import io.helidon.http.HttpPrologue;
import io.helidon.http.ServerResponseHeaders;
import io.helidon.http.WritableHeaders;
import io.helidon.http.Status;
import io.helidon.webserver.ConnectionContext;
import io.helidon.webserver.http1.Http1ConnectionListener;

/**
 * What Helidon's HTTP/1.1 parser tells of each request and answer on a caller's connection, passed
 * to its {@link CallerSocket} to time and end the connection; and a check of RFC 9110 that Helidon
 * 4.5 does not make: a header needs a name (Helidon takes {@code : x}), else 400 and the connection
 * closed, before any route runs; and Helidon's check of a request's path, made only for a path
 * that needs it. A connection in the {@link CallerReserve} is refused 503 for any
 * path but {@code /observe/*}. An HTTP/1.0 request (read as HTTP/1.1, {@link CallerSocket}) closes
 * its connection after its answer unless it asked for keep-alive, and an answer of unknown length
 * goes to it without chunks, ended by the close ({@link Http10Writer}); only its answers say
 * {@code Connection: keep-alive}, which HTTP/1.1 implies.
 */
final class CallerEvents {
    private static final String OBSERVE = "/observe";
    /** The one upgrade Helidon makes, as it matches it. */
    private static final String H2C = "h2c";
    private static final Header KEEP_ALIVE = HeaderValues.CONNECTION_KEEP_ALIVE;

    private CallerEvents() {
    }

    /** The listener of what is received; {@code h2cUpgrades} when HTTP/2 may be reached by an upgrade. */
    static Http1ConnectionListener received(boolean h2cUpgrades) {
        return new Http1ConnectionListener() {
            @Override
            public void prologue(ConnectionContext ctx, HttpPrologue prologue) {
                checkPath(prologue);
                CallerSocket socket = socketOf(ctx);
                if (socket != null && socket.observeOnly() && !prologue.uriPath().path().startsWith(OBSERVE)) {
                    throw RequestRefusals.overloaded("The gateway holds as many callers' connections as it takes"
                            + " (server.max-tcp-connections); retry shortly.");
                }
            }

            @Override
            public void headers(ConnectionContext ctx, Headers headers) {
                for (Header header : headers) {
                    if (header.name().isEmpty()) {
                        throw RequestRefusals.badRequest("A header line has no name.");
                    }
                }
                CallerSocket socket = socketOf(ctx);
                if (socket != null && socket.http10() && !has(headers, KEEP_ALIVE)
                        && headers instanceof WritableHeaders<?> writable) {
                    // HTTP/1.0 closes after each answer unless the caller asked to keep the connection.
                    writable.set(HeaderValues.CONNECTION_CLOSE);
                }
                if (socket != null) {
                    boolean upgrade = h2cUpgrades && headers.first(HeaderNames.UPGRADE).map(H2C::equals).orElse(false);
                    socket.requestHeadersRead(upgrade, has(headers, HeaderValues.CONNECTION_CLOSE));
                }
            }
        };
    }

    /** The listener of what is sent. */
    static Http1ConnectionListener sent() {
        return new Http1ConnectionListener() {
            @Override
            public void status(ConnectionContext ctx, Status status) {
                CallerSocket socket = socketOf(ctx);
                if (socket != null) {
                    socket.answerStatus(status.code());
                }
            }

            // Called before Helidon adds the Connection: close that a request asking for it gets.
            @Override
            public void headers(ConnectionContext ctx, Headers headers) {
                CallerSocket socket = socketOf(ctx);
                if (socket != null && socket.http10() && headers instanceof ServerResponseHeaders writable) {
                    if (has(headers, HeaderValues.TRANSFER_ENCODING_CHUNKED)
                            && ctx.dataWriter() instanceof Http10Writer writer) {
                        // No chunks for HTTP/1.0: the answer's end is the connection's.
                        writable.remove(HeaderNames.TRANSFER_ENCODING);
                        writable.set(HeaderValues.CONNECTION_CLOSE);
                        writer.dechunkNextAnswer();
                    } else {
                        // HTTP/1.0 keeps a connection only when the answer says so; Helidon replaces
                        // this with its Connection: close when the caller did not ask to keep it.
                        writable.setIfAbsent(KEEP_ALIVE);
                    }
                }
                if (socket != null) {
                    socket.answerStarted(has(headers, HeaderValues.CONNECTION_CLOSE));
                }
            }
        };
    }

    /**
     * Whether the headers hold the token, as {@link Headers#containsToken} says; asked first whether the
     * header is there at all, which it seldom is, since Helidon's answer tokenizes through a stream.
     */
    private static boolean has(Headers headers, Header token) {
        return headers.contains(token.headerName()) && headers.containsToken(token);
    }

    /**
     * Helidon's own check of a request's path ({@code validate-path}, off in {@link CallerProtocols}),
     * for a path it could fail on: one of letters, digits and {@code / - _ ~} alone, with no empty
     * segment, is a valid URI path that decodes to itself, where Helidon parses every path as a URI
     * (0.4 us a request, on the connection's thread).
     */
    private static void checkPath(HttpPrologue prologue) {
        UriPath path = prologue.uriPath();
        if (isPlain(path.rawPath())) {
            return;
        }
        try {
            path.validate();
        } catch (IllegalArgumentException e) {
            throw RequestRefusals.badRequest("The request's path is not a valid URI path.");
        }
    }

    private static boolean isPlain(String path) {
        char previous = 0;
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            boolean plain = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || c == '-' || c == '_' || c == '~' || c == '/' && previous != '/';
            if (!plain) {
                return false;
            }
            previous = c;
        }
        return true;
    }

    private static CallerSocket socketOf(ConnectionContext ctx) {
        return ctx.serverSocket() instanceof CallerSocket socket ? socket : null;
    }
}
