package io.aigw.runtime.upstream;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;

/** Reports every successful read of an upstream body to its deadline, which then allows another idle period. */
final class ProgressInputStream extends FilterInputStream {
    private final Deadlines.Deadline deadline;

    ProgressInputStream(InputStream in, Deadlines.Deadline deadline) {
        super(in);
        this.deadline = deadline;
    }

    @Override
    public int read() throws IOException {
        int b = super.read();
        deadline.progress();
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = super.read(buffer, offset, length);
        deadline.progress();
        return n;
    }
}
