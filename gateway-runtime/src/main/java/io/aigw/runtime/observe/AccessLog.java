package io.aigw.runtime.observe;

import io.aigw.runtime.batch.BatchWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Writes one JSON line per request to standard output or a file. A request only hands over an
 * {@link Entry}; the line is formatted and written on a background thread. Lines hold ids, names,
 * numbers and statuses; never a key, a prompt or a completion.
 */
public final class AccessLog implements AutoCloseable {
    /** Lines formatted at a time, giving way in between ({@link BatchWriter#giveWay}). */
    private static final int LINES_PER_STEP = 32;

    private final BatchWriter<Entry> writer;

    /** @param out where lines go */
    public AccessLog(OutputStream out) {
        this.writer = new BatchWriter<>("access log lines", 10_000, Duration.ofMillis(20), entries -> write(out, entries));
    }

    public void log(Entry entry) {
        writer.offer(entry);
    }

    /**
     * What one request leaves in the log. Absent values are null (or negative for numbers) and are
     * left out of the line.
     */
    public record Entry(Instant time, String requestId, String method, String path, int status, long latencyMicros,
                        String keyId, String model, String provider, String upstreamModel, Boolean stream,
                        int fallbacks, long firstByteMicros, long promptTokens, long completionTokens,
                        long totalTokens) {

        /**
         * Appends the entry's line, without its newline, to {@code line}, which may hold the lines
         * before it: a batch is built in one buffer, not a string for each line.
         */
        void appendJson(StringBuilder line) {
            int start = line.length();
            line.append('{');
            text(line, start, "time", time.toString());
            text(line, start, "request_id", requestId);
            text(line, start, "method", method);
            text(line, start, "path", path);
            line.append(",\"status\":").append(status);
            line.append(",\"latency_ms\":");
            Millis.append(line, latencyMicros);
            text(line, start, "key_id", keyId);
            text(line, start, "model", model);
            text(line, start, "provider", provider);
            text(line, start, "upstream_model", upstreamModel);
            if (stream != null) {
                line.append(",\"stream\":").append(stream).append(",\"fallbacks\":").append(fallbacks);
            }
            if (firstByteMicros >= 0) {
                line.append(",\"first_byte_ms\":");
                Millis.append(line, firstByteMicros);
            }
            if (totalTokens >= 0) {
                line.append(",\"prompt_tokens\":").append(promptTokens)
                        .append(",\"completion_tokens\":").append(completionTokens)
                        .append(",\"total_tokens\":").append(totalTokens);
            }
            line.append('}');
        }

        /** A string member; {@code start} is where the line begins in {@code line}, at its opening brace. */
        private static void text(StringBuilder line, int start, String name, String value) {
            if (value == null) {
                return;
            }
            if (line.length() > start + 1) {
                line.append(',');
            }
            line.append('"').append(name).append("\":\"");
            int clean = 0;
            while (clean < value.length() && !needsEscape(value.charAt(clean))) {
                clean++;
            }
            // Ids, names and paths seldom hold anything to escape: their clean start goes in with one
            // append, since appending a character at a time made this the writer's largest cost.
            line.append(value, 0, clean);
            for (int i = clean; i < value.length(); i++) {
                char c = value.charAt(i);
                switch (c) {
                    case '"' -> line.append("\\\"");
                    case '\\' -> line.append("\\\\");
                    default -> {
                        if (c < 0x20) {
                            line.append(String.format("\\u%04x", (int) c));
                        } else {
                            line.append(c);
                        }
                    }
                }
            }
            line.append('"');
        }

        private static boolean needsEscape(char c) {
            return c == '"' || c == '\\' || c < 0x20;
        }
    }

    private static void write(OutputStream out, List<Entry> entries) {
        StringBuilder text = new StringBuilder(entries.size() * 320);
        for (int i = 0; i < entries.size(); i++) {
            if (i > 0 && i % LINES_PER_STEP == 0) {
                BatchWriter.giveWay(entries.size());
            }
            entries.get(i).appendJson(text);
            text.append('\n');
        }
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
