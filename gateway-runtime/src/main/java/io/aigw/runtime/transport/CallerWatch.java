package io.aigw.runtime.transport;

/**
 * Notices a caller that leaves while its request waits on something else, such as an upstream:
 * Helidon reads a caller's connection only between requests, so without this a caller that hangs
 * up is noticed only when its answer is written (package doc, 5). Works for HTTP/1.1 callers, whose
 * requests are handled on their connection's thread; for others (HTTP/2 streams, or with
 * {@code gateway.transport.caller-watch} off) a watch never fires.
 *
 * <p>Made on the request's thread, started from any: watching costs a read ahead and a hand-over
 * to the connection's next read, which a quick request need not pay.
 */
public final class CallerWatch implements AutoCloseable {
    /** The caller socket of the connection this thread is handling, while it handles it. */
    private static final ThreadLocal<ReadAheadSocket> HANDLED = new ThreadLocal<>();

    /** The socket to watch, or null when this thread's requests cannot be watched. */
    private final ReadAheadSocket socket;
    private ReadAheadSocket.Watching watching;
    private boolean closed;

    private CallerWatch(ReadAheadSocket socket) {
        this.socket = socket;
    }

    /** A watch of the caller of the request this thread handles; nothing is read until {@link #start}. */
    public static CallerWatch forThisRequest() {
        return new CallerWatch(HANDLED.get());
    }

    /**
     * Starts watching, from any thread: if the caller leaves before {@link #close()}, {@code whenLeft}
     * runs, on another thread (or on this one, at once, if the caller is known to have left). Only
     * the first start counts; none after the close.
     */
    public synchronized void start(Runnable whenLeft) {
        if (socket != null && !closed && watching == null) {
            watching = socket.watch(whenLeft);
        }
    }

    /** Runs {@code handling} with {@code socket} as the caller socket of this thread's requests. */
    static void handling(ReadAheadSocket socket, Handling handling) throws InterruptedException {
        HANDLED.set(socket);
        try {
            handling.run();
        } finally {
            HANDLED.remove();
        }
    }

    /** A connection's handling of its requests. */
    interface Handling {
        void run() throws InterruptedException;
    }

    /** Stops watching; after this {@code whenLeft} does not run. */
    @Override
    public synchronized void close() {
        closed = true;
        if (watching != null) {
            watching.close();
        }
    }
}
