package io.aigw.runtime.transport;

import io.helidon.common.buffers.BufferData;
import io.helidon.common.buffers.DataWriter;
import java.io.ByteArrayOutputStream;

/**
 * A caller connection's writer that can take the chunked framing off one answer, for an HTTP/1.0
 * caller, who does not know chunked encoding: Helidon frames every answer of unknown length in
 * chunks, so the answer goes out with its chunks' data alone, its end told by the connection's
 * close (RFC 9112, section 6.3). Helidon's framing is parsed as Helidon writes it (sizes in hex,
 * no extensions, no trailers).
 */
final class Http10Writer implements DataWriter {
    private final DataWriter writer;
    private Mode mode = Mode.PASS;
    /** The last bytes of the head seen, to find its blank line. */
    private int headTail;
    private long size;
    private int crlfToSkip;

    private enum Mode { PASS, HEAD, SIZE, DATA, DATA_END, END }

    Http10Writer(DataWriter writer) {
        this.writer = writer;
    }

    /** The next answer, head first, goes out without its chunked framing. */
    void dechunkNextAnswer() {
        mode = Mode.HEAD;
        headTail = 0;
    }

    @Override
    public void write(BufferData... buffers) {
        for (BufferData buffer : buffers) {
            write(buffer);
        }
    }

    @Override
    public void write(BufferData buffer) {
        BufferData out = take(buffer);
        if (out != null) {
            writer.write(out);
        }
    }

    @Override
    public void writeNow(BufferData... buffers) {
        for (BufferData buffer : buffers) {
            writeNow(buffer);
        }
    }

    @Override
    public void writeNow(BufferData buffer) {
        BufferData out = take(buffer);
        if (out != null) {
            writer.writeNow(out);
        }
    }

    @Override
    public void flush() {
        writer.flush();
    }

    @Override
    public void close() {
        writer.close();
    }

    /** What of {@code buffer} goes out: all of it, or its chunks' data; null for nothing. */
    private BufferData take(BufferData buffer) {
        if (mode == Mode.PASS) {
            return buffer;
        }
        byte[] in = buffer.readBytes();
        ByteArrayOutputStream out = new ByteArrayOutputStream(in.length);
        for (int i = 0; i < in.length; i++) {
            byte b = in[i];
            switch (mode) {
                case HEAD -> {
                    out.write(b);
                    headTail = (headTail << 8) | (b & 0xff);
                    if (headTail == 0x0d0a0d0a) {
                        mode = Mode.SIZE;
                        size = 0;
                    }
                }
                case SIZE -> {
                    if (b == '\n') {
                        mode = size == 0 ? Mode.END : Mode.DATA;
                    } else if (b != '\r') {
                        size = size * 16 + Character.digit(b, 16);
                    }
                }
                case DATA -> {
                    int length = (int) Math.min(size, in.length - i);
                    out.write(in, i, length);
                    size -= length;
                    i += length - 1;
                    if (size == 0) {
                        mode = Mode.DATA_END;
                        crlfToSkip = 2;
                    }
                }
                case DATA_END -> {
                    if (--crlfToSkip == 0) {
                        mode = Mode.SIZE;
                        size = 0;
                    }
                }
                case END, PASS -> {
                    // The last chunk and what follows it: not for an HTTP/1.0 caller.
                }
            }
        }
        return out.size() == 0 ? null : BufferData.create(out.toByteArray());
    }
}
