package io.aigw.runtime.observe;

import io.aigw.runtime.batch.BatchWriter;
import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.pricing.Cost;
import io.aigw.runtime.text.LogText;
import io.aigw.runtime.upstream.Millis;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Writes one JSON line per request to standard output or a file. A request only hands over an
 * {@link Entry}; the line is formatted and written on a background thread. Lines hold ids, names,
 * numbers and statuses; never a key, a prompt or a completion. Written by hand: JSON-B takes three
 * and a half times as long per line and allocates ten times as much ({@code AccessLogLineBenchmark}).
 */
public final class AccessLog implements AutoCloseable {
    /** The longest text a line keeps of a value; real model ids and paths are far shorter. */
    static final int MAX_TEXT = 256;
    /** Lines formatted at a time, giving way in between ({@link BatchWriter#giveWay}). */
    private static final int LINES_PER_STEP = 32;

    private final BatchWriter<Entry> writer;

    /** @param out where lines go */
    public AccessLog(OutputStream out) {
        LineOutput lines = new LineOutput(out);
        this.writer = new BatchWriter<>("access log lines", 10_000, Duration.ofMillis(20), lines::write);
    }

    /**
     * The access log {@code gateway.access-log} asks for: {@code stdout}, {@code off} (none), or a
     * file that lines are appended to.
     */
    public static Optional<AccessLog> open(String target) {
        return switch (target) {
            case "off" -> Optional.empty();
            case "stdout" -> Optional.of(new AccessLog(System.out));
            default -> {
                try {
                    yield Optional.of(new AccessLog(Files.newOutputStream(Path.of(target),
                            StandardOpenOption.CREATE, StandardOpenOption.APPEND)));
                } catch (IOException e) {
                    throw new ConfigurationException("gateway.access-log: cannot open '" + target + "': " + e);
                }
            }
        };
    }

    public void log(Entry entry) {
        writer.offer(entry);
    }

    /**
     * What one request leaves in the log. Absent values are null (or negative for numbers) and are
     * left out of the line; a text longer than {@link #MAX_TEXT} characters is cut there, with
     * {@code ...}: a caller chooses its model id and path, and a line must stay a line.
     */
    public record Entry(Instant time, String requestId, String method, String path, String endpoint, int status,
                        long latencyMicros, String keyId, String model, String provider, String upstreamModel,
                        Boolean stream, int fallbacks, long firstByteMicros, long promptTokens,
                        long completionTokens, long totalTokens, Cost cost, String traceId, String upstreamKey) {

        /** An entry without a trace or an upstream key: tracing is off, no provider was called. */
        public Entry(Instant time, String requestId, String method, String path, String endpoint, int status,
                     long latencyMicros, String keyId, String model, String provider, String upstreamModel,
                     Boolean stream, int fallbacks, long firstByteMicros, long promptTokens, long completionTokens,
                     long totalTokens, Cost cost) {
            this(time, requestId, method, path, endpoint, status, latencyMicros, keyId, model, provider,
                    upstreamModel, stream, fallbacks, firstByteMicros, promptTokens, completionTokens, totalTokens,
                    cost, null, null);
        }

        /** Appends the entry's line, without its newline, to {@code line}. */
        void appendJson(StringBuilder line) {
            int start = line.length();
            line.append("{\"time\":\"");
            InstantText.append(line, time);
            line.append('"');
            text(line, start, "request_id", requestId);
            text(line, start, "method", method);
            text(line, start, "path", path);
            text(line, start, "endpoint", endpoint);
            line.append(",\"status\":").append(status);
            line.append(",\"latency_ms\":");
            Millis.append(line, latencyMicros);
            text(line, start, "key_id", keyId);
            text(line, start, "model", model);
            text(line, start, "provider", provider);
            text(line, start, "upstream_model", upstreamModel);
            text(line, start, "upstream_key", upstreamKey);
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
            if (cost != null) {
                if (cost.amount().isPresent()) {
                    cost.amount().get().appendTo(line.append(",\"cost_usd\":"));
                }
                line.append(",\"cost_basis\":\"").append(cost.basis().label()).append('"');
            }
            text(line, start, "trace_id", traceId);
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
            int end = shownLength(value);
            int clean = 0;
            while (clean < end && !needsEscape(value, clean, end)) {
                clean++;
            }
            // Ids, names and paths seldom hold anything to escape: their clean start goes in with one
            // append rather than a character at a time.
            line.append(value, 0, clean);
            for (int i = clean; i < end; i++) {
                char c = value.charAt(i);
                switch (c) {
                    case '"' -> line.append("\\\"");
                    case '\\' -> line.append("\\\\");
                    default -> {
                        if (LogText.mustEscape(value, i, end)) {
                            LogText.appendUnicodeEscape(line, c);
                        } else {
                            line.append(c);
                        }
                    }
                }
            }
            if (end < value.length()) {
                line.append("...");
            }
            line.append('"');
        }

        /** How much of {@code value} the line shows: all, or {@link #MAX_TEXT} chars without splitting a pair. */
        private static int shownLength(String value) {
            if (value.length() <= MAX_TEXT) {
                return value.length();
            }
            return Character.isHighSurrogate(value.charAt(MAX_TEXT - 1)) ? MAX_TEXT - 1 : MAX_TEXT;
        }

        /**
         * JSON's own escapes, and what {@link LogText} escapes: a line read in a terminal or viewer
         * must not show a caller's DEL, C1 or bidirectional control raw.
         */
        private static boolean needsEscape(String value, int i, int end) {
            char c = value.charAt(i);
            return c == '"' || c == '\\' || c < 0x20 || c >= 0x7f && LogText.mustEscape(value, i, end);
        }
    }

    /**
     * Formats and writes batches on the writer's thread, through a line buffer, a char array and a
     * byte buffer that every batch reuses, so that a line allocates nothing that brings the next
     * young collection nearer for the requests. Lines go out whole, several to a write; only a line
     * longer than the byte buffer goes out in pieces, one right after another.
     */
    private static final class LineOutput {
        private static final int BUFFER_BYTES = 16 * 1024;
        /** A line longer than this (a caller's very long model id) leaves no larger buffer behind. */
        private static final int KEPT_LINE_CHARS = 4 * 1024;
        /** UTF-8 takes at most three bytes for a char (a surrogate pair: four for two). */
        private static final int MAX_BYTES_PER_CHAR = 3;

        private final OutputStream out;
        // As String.getBytes does: a lone surrogate becomes '?' rather than an error.
        private final CharsetEncoder utf8 = StandardCharsets.UTF_8.newEncoder()
                .onMalformedInput(CodingErrorAction.REPLACE)
                .onUnmappableCharacter(CodingErrorAction.REPLACE);
        private final ByteBuffer bytes = ByteBuffer.allocate(BUFFER_BYTES);
        private StringBuilder line = new StringBuilder(512);
        /**
         * The line's chars, copied out of the builder: the encoder's fast loop needs an array
         * behind its input, where {@code CharBuffer.wrap} of the builder is encoded a char at a time.
         */
        private char[] chars = new char[512];

        LineOutput(OutputStream out) {
            this.out = out;
        }

        void write(List<Entry> entries) {
            try {
                for (int i = 0; i < entries.size(); i++) {
                    if (i > 0 && i % LINES_PER_STEP == 0) {
                        BatchWriter.giveWay(entries.size());
                    }
                    line.setLength(0);
                    entries.get(i).appendJson(line);
                    line.append('\n');
                    encode(line);
                }
                drain();
                out.flush();
            } catch (IOException e) {
                bytes.clear();
                throw new UncheckedIOException(e);
            } finally {
                if (line.capacity() > KEPT_LINE_CHARS) {
                    line = new StringBuilder(512);
                    chars = new char[512];
                }
            }
        }

        /** Adds the line's bytes, writing out the lines before it first when it might not fit beside them. */
        private void encode(StringBuilder text) throws IOException {
            int length = text.length();
            if (bytes.remaining() < length * MAX_BYTES_PER_CHAR) {
                drain();
            }
            if (chars.length < length) {
                chars = new char[length];
            }
            text.getChars(0, length, chars, 0);
            CharBuffer in = CharBuffer.wrap(chars, 0, length);
            utf8.reset();
            while (utf8.encode(in, bytes, true).isOverflow()) {
                drain();
            }
            while (utf8.flush(bytes).isOverflow()) {
                drain();
            }
        }

        private void drain() throws IOException {
            out.write(bytes.array(), 0, bytes.position());
            bytes.clear();
        }
    }

    @Override
    public void close() {
        writer.close();
    }
}
