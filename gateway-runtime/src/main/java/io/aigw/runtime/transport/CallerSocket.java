package io.aigw.runtime.transport;

import io.helidon.common.buffers.DataReader;
import io.helidon.common.socket.HelidonSocket;
import java.lang.System.Logger.Level;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * A caller's HTTP/1.1 socket read with deadlines ({@link CallerTimeouts}) and ended as RFC 9112
 * says: each read the connection makes waits at most as long as the request's phase allows (a new
 * connection's first request, the headers, the body, the wait between requests), and each write
 * of an answer waits at most {@code gateway.timeouts.caller-send} for the caller to take it
 * ({@link SendTimedWriter}), after which {@link DeadlineSweeper} closes the socket; after an answer
 * that says {@code Connection: close} the connection reads nothing more, so that it ends; a body
 * slower than its pace ({@link BodyPace}) fails its read with {@link CallerTooSlow}, for its reader
 * to answer 408; after an error answer that may have left part of a request unread, what the
 * caller still sends is read and dropped for a while before the socket closes (a lingering close),
 * so that the caller gets the answer rather than a reset.
 *
 * <p>The phases follow Helidon's own parsing, told by {@link CallerEvents}. A connection that turns
 * to HTTP/2 (its preface, or an {@code Upgrade}) is read without deadlines: its reads wait for
 * frames while its streams are served elsewhere. Bytes Helidon's own reader took from the socket
 * before this one (to pick the protocol) come first.
 */
final class CallerSocket extends ForwardingSocket {
    private static final System.Logger LOG = System.getLogger(CallerSocket.class.getName());
    private static final byte[] HTTP2_PREFACE = "PRI * HTTP/2.0".getBytes(StandardCharsets.US_ASCII);
    /** How long a connection in the reserve may wait for its first request: a health check sends at once. */
    private static final Duration RESERVE_FIRST = Duration.ofSeconds(1);
    /** nginx's {@code lingering_timeout} and {@code lingering_time}. */
    private static final Duration LINGER_QUIET = Duration.ofSeconds(2);
    private static final Duration LINGER_MAX = Duration.ofSeconds(30);

    private final DataReader helidonsReader;
    private final CallerTimeouts timeouts;
    private final long tickNanos;
    /** The pace of the body being read; used on the connection's thread only. */
    private final BodyPace pace;

    /** Where the connection stands; changed on the connection's thread only. */
    private volatile Phase phase = Phase.FIRST;
    private long requestStart;
    private boolean firstRead = true;
    private boolean methodPending;
    private boolean requestAsksClose;
    private boolean observeOnly;
    private volatile boolean http10;
    /** Ends the connection's handling after its answer; set once Helidon's connection exists. */
    private Runnable endAfterAnswer = () -> { };
    private boolean ending;
    private boolean lingerAsked;
    private int answerStatus;
    /** When the read in flight must have returned, or 0 when none is in flight. */
    private volatile long deadline;
    /** The phase of the read in flight, for the log line of a read that ran out of time. */
    private volatile Phase readPhase;
    /** When the write in flight must have been taken by the caller, or 0 when none is in flight. */
    private volatile long writeDeadline;

    private enum Phase {
        /** A new connection, before its first request's first byte. */
        FIRST,
        /** Between requests. */
        IDLE,
        /** A request's first byte came; its headers are not complete. */
        HEADERS,
        /** A request's headers came; its body, if any, is read. */
        BODY,
        /** Reading what the caller still sends after an error answer, to drop it. */
        LINGER,
        /** HTTP/2: no deadline. */
        UNTIMED
    }

    CallerSocket(HelidonSocket socket, DataReader helidonsReader, CallerTimeouts timeouts) {
        super(socket);
        this.helidonsReader = helidonsReader;
        this.timeouts = timeouts;
        this.tickNanos = timeouts.tickNanos();
        this.pace = new BodyPace(timeouts);
    }

    long tickNanos() {
        return tickNanos;
    }

    @Override
    public byte[] get() {
        if (ending) {
            return null;
        }
        byte[] bytes;
        if (helidonsReader.available() > 0) {
            bytes = helidonsReader.readBytes(helidonsReader.available());
        } else {
            bytes = timedRead();
        }
        return bytes == null ? null : received(bytes);
    }

    private byte[] timedRead() {
        long now = System.nanoTime();
        long due = switch (phase) {
            case FIRST -> now + (observeOnly ? Math.min(timeouts.headers().toNanos(), RESERVE_FIRST.toNanos())
                    : timeouts.headers().toNanos());
            case IDLE -> now + timeouts.keepAlive().toNanos();
            case HEADERS -> requestStart + timeouts.headers().toNanos();
            case BODY -> now + timeouts.body().toNanos();
            case LINGER -> now + LINGER_QUIET.toNanos();
            case UNTIMED -> 0;
        };
        if (due == 0) {
            return super.get();
        }
        readPhase = phase;
        deadline = due;
        byte[] bytes;
        try {
            bytes = super.get();
        } finally {
            deadline = 0;
        }
        if (phase == Phase.BODY && bytes != null && !pace.kept(System.nanoTime() - now, bytes.length)) {
            throw new CallerTooSlow(timeouts.bodyMinRate());
        }
        return bytes;
    }

    private byte[] received(byte[] bytes) {
        if (firstRead) {
            firstRead = false;
            if (RequestLines.startsWith(bytes, HTTP2_PREFACE)) {
                phase = Phase.UNTIMED;
            }
        }
        if (phase == Phase.FIRST || methodPending) {
            // Only a connection's first request is known to start where these bytes do.
            methodPending = !RequestLines.methodEnds(bytes);
        }
        if (phase == Phase.FIRST || phase == Phase.IDLE) {
            phase = Phase.HEADERS;
            requestStart = System.nanoTime();
            http10 = RequestLines.toHttp11(bytes);
            if (http10) {
                return RequestLines.withHost(bytes);
            }
        }
        return bytes;
    }

    /**
     * A write to the caller begins: unless the caller takes it within {@code gateway.timeouts.caller-send},
     * the sweeper closes the socket, which fails the write. Not for HTTP/2, whose streams share the
     * connection's writes.
     */
    void writing() {
        if (phase != Phase.UNTIMED) {
            writeDeadline = System.nanoTime() + timeouts.send().toNanos();
        }
    }

    /** The write in flight returned. */
    void written() {
        writeDeadline = 0;
    }

    /** Called by the sweeper: closes the socket if the read or the write in flight is overdue. */
    void closeIfOverdue(long now) {
        long writeDue = writeDeadline;
        if (writeDue != 0 && now - writeDue > 0) {
            writeDeadline = 0;
            try {
                LOG.log(Level.INFO, "Closed the connection of " + socket.remotePeer().address()
                        + ": the caller took nothing of its answer for " + timeouts.send()
                        + " (gateway.timeouts.caller-send)");
            } catch (RuntimeException e) {
                // The caller's address is gone with its socket: the close below is what matters.
            }
            closeQuietly();
            return;
        }
        long due = deadline;
        if (due != 0 && now - due > 0) {
            deadline = 0;
            Phase late = readPhase;
            if (late != Phase.IDLE && late != Phase.LINGER) {
                try {
                    LOG.log(Level.INFO, "Closed the connection of " + socket.remotePeer().address() + ": "
                            + switch (late) {
                                case FIRST -> "no request within " + timeouts.headers();
                                case HEADERS -> "the request's headers were not complete within " + timeouts.headers();
                                default -> "no byte of the request's body for " + timeouts.body();
                            } + " (gateway.timeouts.caller-*)");
                } catch (RuntimeException e) {
                    // The caller's address is gone with its socket: the close below is what matters.
                }
            }
            closeQuietly();
        }
    }

    private void closeQuietly() {
        try {
            socket.close();
        } catch (RuntimeException e) {
            // Closed already, by the connection's own end.
        }
    }

    /** Whether this connection was opened in the reserve, for {@code /observe/*} alone. */
    void observeOnly(boolean observeOnly) {
        this.observeOnly = observeOnly;
    }

    boolean observeOnly() {
        return observeOnly;
    }

    /** What ends the connection's handling once its answer is out (Helidon's graceful close). */
    void endAfterAnswerBy(Runnable end) {
        this.endAfterAnswer = end;
    }

    /** A request's headers were read: its body comes next, or none. */
    void requestHeadersRead(boolean upgrade, boolean closeAsked) {
        phase = upgrade ? Phase.UNTIMED : Phase.BODY;
        pace.restart();
        requestAsksClose = closeAsked;
    }

    /** The status of the answer whose head is about to be written. */
    void answerStatus(int status) {
        answerStatus = status;
    }

    /**
     * An answer's head is being written: the next read waits for a new request, or, after an answer
     * that closes the connection, there is none: the connection ends, lingering first after an error.
     */
    void answerStarted(boolean closes) {
        // Before a request's headers were read, the answer is Helidon's refusal of it, after which
        // Helidon ends the connection itself.
        boolean routed = phase == Phase.BODY;
        if (phase != Phase.UNTIMED) {
            phase = Phase.IDLE;
        }
        if (closes || requestAsksClose) {
            ending = true;
            lingerAsked = answerStatus >= 400;
            if (routed) {
                endAfterAnswer.run();
            }
        }
        requestAsksClose = false;
    }

    /** Whether the request being read came as HTTP/1.0. */
    boolean http10() {
        return http10;
    }

    /** Ends a lingering close at once (the server stops). */
    void stopLingering() {
        if (phase == Phase.LINGER) {
            try {
                socket.close();
            } catch (RuntimeException e) {
                // Closed already.
            }
        }
    }

    /**
     * After the connection's last answer: if it was an error that closes the connection, reads and
     * drops what the caller still sends until the caller closes, goes quiet for a while, or a time
     * has passed, so that the socket does not close with unread bytes, which would reset the
     * connection and could lose the answer on the caller's side.
     */
    void lingerIfAsked() {
        if (!lingerAsked) {
            return;
        }
        lingerAsked = false;
        ending = false;
        phase = Phase.LINGER;
        long end = System.nanoTime() + LINGER_MAX.toNanos();
        try {
            while (System.nanoTime() - end < 0 && timedRead() != null) {
                // Dropped.
            }
        } catch (RuntimeException e) {
            // The caller reset the connection, or the sweeper closed it: either way it is over.
        }
    }
}
