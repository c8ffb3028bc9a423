package io.aigw.runtime.upstream;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * Tells an upstream body's deadline when each read waits on the upstream and when it got bytes, so
 * that the idle timeout measures the upstream's silence only, never the time spent writing to the
 * caller between two reads.
 */
final class ProgressInputStream extends FilterInputStream {
    private final Deadlines.Deadline deadline;

    ProgressInputStream(InputStream in, Deadlines.Deadline deadline) {
        super(in);
        this.deadline = deadline;
    }

    @Override
    public int read() throws IOException {
        deadline.waitsOnUpstream();
        int b = super.read();
        deadline.progress();
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        deadline.waitsOnUpstream();
        int n = super.read(buffer, offset, length);
        deadline.progress();
        return n;
    }
}
