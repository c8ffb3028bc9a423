package io.aigw.runtime.transport;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataListener;
import io.helidon.common.buffers.DataReader;
import io.helidon.common.buffers.LazyString;
import java.nio.charset.Charset;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * A caller connection's reader that starts a new Helidon reader, with a chain of its own, each time
 * all it had read is consumed: between two requests on a connection whose caller waits for each
 * answer, as the SDKs do. A reader kept busy (pipelined requests, HTTP/2 frames that straddle two
 * reads) starts afresh only when a read happens to end where a request or frame does. No byte is
 * lost or reordered by a restart: it happens only when the current reader holds nothing unread.
 *
 * <p>Why a reader that starts afresh is needed, and how to do without it, is in the package doc.
 * It also hands Helidon a chunked body's lines without extensions and trailers ({@link ChunkLines}).
 */
final class RestartingDataReader extends DataReader {
    private final Supplier<byte[]> socket;
    private DataReader current;
    /**
     * Bytes the current reader is known to hold unread, at least: each use finds out whether it holds
     * none only when this is 0, as its count walks its chain (a micro-second a request, looked at
     * before each of the parser's dozens of calls). Counted down before each call by what the call
     * will consume, so it never overstates; a call that consumes an unknown amount sets it to 0.
     */
    private int knownUnread;
    private Consumer<DataReader> listener = reader -> { };
    private int restarts;
    private final ChunkLines chunkLines = new ChunkLines();

    @SuppressWarnings("removal") // The only way to extend DataReader in Helidon 4; this object holds no chain itself.
    RestartingDataReader(Supplier<byte[]> socket) {
        super(socket);
        this.socket = socket;
        this.current = DataReader.create(socket);
    }

    /** The reader to use now: a new one when the current one holds nothing unread. */
    private DataReader current() {
        if (knownUnread > 0) {
            return current;
        }
        knownUnread = current.available();
        if (knownUnread == 0) {
            current = DataReader.create(socket);
            listener.accept(current);
            restarts++;
        }
        return current;
    }

    /** The current reader, about to consume {@code length} bytes. */
    private DataReader consuming(int length) {
        DataReader reader = current();
        knownUnread = Math.max(0, knownUnread - length);
        return reader;
    }

    /** The current reader, about to consume as much as it will. */
    private DataReader consumingAll() {
        DataReader reader = current();
        knownUnread = 0;
        return reader;
    }

    /** How many times a new reader was started. */
    int restarts() {
        return restarts;
    }

    @Override
    public int available() {
        return current.available();
    }

    @Override
    public void pullData() {
        current().pullData();
    }

    @Override
    public void skip(int lenToSkip) {
        consuming(lenToSkip).skip(lenToSkip);
    }

    @Override
    public void ensureAvailable() {
        current().ensureAvailable();
    }

    @Override
    public byte read() {
        return consuming(1).read();
    }

    @Override
    public byte lookup() {
        return current().lookup();
    }

    @Override
    public boolean startsWithNewLine() {
        return current().startsWithNewLine();
    }

    @Override
    public boolean startsWith(byte[] prefix) {
        return current().startsWith(prefix);
    }

    @Override
    public BufferData readBuffer() {
        return consumingAll().readBuffer();
    }

    @Override
    public BufferData readBuffer(int length) {
        return consuming(length).readBuffer(length);
    }

    @Override
    public BufferData getBuffer(int length) {
        return current().getBuffer(length);
    }

    @Override
    public LazyString readLazyString(Charset charset, int len) {
        return consuming(len).readLazyString(charset, len);
    }

    @Override
    public String readAsciiString(int len) {
        return consuming(len).readAsciiString(len);
    }

    @Override
    public byte[] readBytes(int len) {
        return consuming(len).readBytes(len);
    }

    /** Only Helidon's reading of a chunked body asks for lines: see {@link ChunkLines}. */
    @Override
    public String readLine() throws IncorrectNewLineException {
        return chunkLines.next(consumingAll());
    }

    @Override
    public int findOrNewLine(byte b, int max) throws IncorrectNewLineException {
        return current().findOrNewLine(b, max);
    }

    @Override
    public String debugDataHex() {
        return current.debugDataHex();
    }

    @Override
    public int findNewLine(int max) throws IncorrectNewLineException {
        return current().findNewLine(max);
    }

    /** Passed on to the current reader and to each one started after it. */
    @Override
    public <T> void listener(DataListener<T> listener, T context) {
        this.listener = reader -> reader.listener(listener, context);
        this.listener.accept(current);
    }
}
