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
        if (current.available() == 0) {
            current = DataReader.create(socket);
            listener.accept(current);
            restarts++;
        }
        return current;
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
        current().skip(lenToSkip);
    }

    @Override
    public void ensureAvailable() {
        current().ensureAvailable();
    }

    @Override
    public byte read() {
        return current().read();
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
        return current().readBuffer();
    }

    @Override
    public BufferData readBuffer(int length) {
        return current().readBuffer(length);
    }

    @Override
    public BufferData getBuffer(int length) {
        return current().getBuffer(length);
    }

    @Override
    public LazyString readLazyString(Charset charset, int len) {
        return current().readLazyString(charset, len);
    }

    @Override
    public String readAsciiString(int len) {
        return current().readAsciiString(len);
    }

    @Override
    public byte[] readBytes(int len) {
        return current().readBytes(len);
    }

    /** Only Helidon's reading of a chunked body asks for lines: see {@link ChunkLines}. */
    @Override
    public String readLine() throws IncorrectNewLineException {
        return chunkLines.next(current());
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
