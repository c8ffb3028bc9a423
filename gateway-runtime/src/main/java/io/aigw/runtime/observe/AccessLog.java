package io.aigw.runtime.observe;

import io.aigw.runtime.batch.BatchWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

/**
 * Writes one JSON line per request to standard output or a file, from a background thread. Lines
 * hold ids, names, numbers and statuses; never a key, a prompt or a completion.
 */
public final class AccessLog implements AutoCloseable {
    private final BatchWriter<String> writer;

    /** @param out where lines go; closed with this log unless it is {@code System.out} */
    public AccessLog(OutputStream out) {
        this.writer = new BatchWriter<>("access log lines", 10_000, Duration.ofMillis(50), lines -> write(out, lines));
    }

    public void log(String jsonLine) {
        writer.offer(jsonLine);
    }

    private static void write(OutputStream out, List<String> lines) {
        StringBuilder text = new StringBuilder(lines.size() * 256);
        lines.forEach(line -> text.append(line).append('\n'));
        try {
            out.write(text.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        writer.close();
    }
}
