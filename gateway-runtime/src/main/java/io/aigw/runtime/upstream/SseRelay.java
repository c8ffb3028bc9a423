package io.aigw.runtime.upstream;

import io.aigw.runtime.error.Jsons;
import io.aigw.runtime.metering.ResponseFacts;
import io.aigw.runtime.metering.TextEstimate;
import io.aigw.runtime.metering.TokenUsage;
import io.helidon.webserver.ServerConnectionException;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * Copies a server-sent event stream from the upstream to the caller, flushing after each complete
 * event, so the caller sees every event as soon as the upstream sends it and never half of one.
 * The bytes are passed through untouched: comments, {@code data: [DONE]}, line endings and all.
 * {@link EventStreamRelay} starts the caller's answer and ends it when either side stops.
 */
final class SseRelay {
    private static final byte[] DATA = "data:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] USAGE = "\"usage\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] FINISH_REASON = "\"finish_reason\"".getBytes(StandardCharsets.US_ASCII);
    /** Past this much without an event boundary the bytes go out anyway: no stream is held back. */
    private static final int MAX_PENDING = 64 * 1024;
    /**
     * Small to start with: a provider's event is a few hundred bytes, and thousands of streams may be
     * open at once. It grows for larger events.
     */
    private static final int START_SIZE = 2048;
    /** The most asked of one read: an event or two; a larger one takes more reads. */
    private static final int READ_SIZE = 1024;
    /** Less room than this left in {@link #pending} and it grows before the next read. */
    private static final int MIN_READ = 256;

    private final InputStream upstream;
    private final OutputStream caller;
    private final WireFormat format;
    private final boolean hideUsageChunk;
    private final boolean endsByClose;
    private final WireFormat.StreamNotes notes;
    private final Consumer<String> created;
    private final boolean factsWanted;
    private byte[] pending = new byte[START_SIZE];
    private int pendingLength;
    private TokenUsage usage = TokenUsage.NONE;
    private ResponseFacts facts = ResponseFacts.NONE;
    /** Whether an event of this stream has been parsed for its facts: the first one is, whatever it holds. */
    private boolean factsBegun;
    private long textBytes;
    /** Whether the stream's own end ({@link WireFormat#endsStream}) has been relayed. */
    private boolean doneRelayed;

    /**
     * @param format         the API's stream format: where usage is, which event ends the stream
     * @param hideUsageChunk whether the final usage-only chunk was asked for by the gateway, not the
     *                       caller, and so is counted but not relayed (chat completions only)
     * @param endsByClose    whether the upstream's body ends with its connection, which then tells
     *                       nothing of whether the stream is whole: only its last event does
     * @param created        told the id of what the upstream created, when an event names it
     * @param factsWanted    whether the stream's {@link ResponseFacts} are read: tracing asks for them,
     *                       and they cost the parse of events that report no usage
     */
    SseRelay(InputStream upstream, OutputStream caller, WireFormat format, boolean hideUsageChunk,
             boolean endsByClose, Consumer<String> created, boolean factsWanted) {
        this.upstream = upstream;
        this.caller = caller;
        this.format = format;
        this.hideUsageChunk = hideUsageChunk;
        this.endsByClose = endsByClose;
        this.notes = format.notes();
        this.created = created;
        this.factsWanted = factsWanted;
    }

    /** The token usage the stream reported, or {@link TokenUsage#NONE}. */
    TokenUsage usage() {
        return usage;
    }

    /** The model, id and finish reasons the stream stated, when they were asked for; else {@link ResponseFacts#NONE}. */
    ResponseFacts facts() {
        return facts;
    }

    /**
     * The bytes of generated text in the events relayed so far ({@link TextEstimate}): what a stream
     * that reports no usage is charged by.
     */
    long textBytes() {
        return textBytes;
    }

    /**
     * Relays until the upstream ends its stream.
     *
     * @throws UpstreamBroke when reading the upstream fails, or a body that ends with its connection
     *                       ends before the stream's last event; what was complete has been delivered
     * @throws CallerGone    when writing to the caller fails
     */
    void run() {
        while (true) {
            // Read straight into what is pending: one buffer a stream, and each read the client makes
            // allocates a buffer the size asked for, held while the read waits.
            if (pending.length - pendingLength < MIN_READ) {
                pending = Arrays.copyOf(pending, pending.length * 2);
            }
            int n;
            try {
                n = upstream.read(pending, pendingLength, Math.min(READ_SIZE, pending.length - pendingLength));
            } catch (IOException | UncheckedIOException e) {
                throw new UpstreamBroke(e);
            }
            if (n < 0) {
                if (endsByClose && !doneRelayed) {
                    // An upstream that stopped short closes its connection just as one that finished.
                    throw new UpstreamBroke(new EOFException("The upstream closed the stream before its last event"));
                }
                if (pendingLength > 0) {
                    writeCounted(0, pendingLength);
                    pendingLength = 0;
                }
                return;
            }
            pendingLength += n;
            int end = lastEventEnd();
            if (end > 0) {
                relayEvents(end);
            } else if (pendingLength > MAX_PENDING) {
                writeCounted(0, pendingLength);
                pendingLength = 0;
            }
        }
    }

    /** Relays the complete events in {@code pending[0, end)} with one flush, leaving the rest pending. */
    private void relayEvents(int end) {
        int kept = 0;
        int eventStart = 0;
        while (eventStart < end) {
            int eventEnd = nextEventEnd(eventStart, end);
            if (!keep(eventStart, eventEnd)) {
                if (eventStart > kept) {
                    writeUnflushed(pending, kept, eventStart - kept);
                }
                kept = eventEnd;
            } else {
                textBytes += TextEstimate.textBytes(pending, eventStart, eventEnd);
                doneRelayed |= endsByClose && format.endsStream(pending, eventStart, eventEnd);
                notes.relayed(pending, eventStart, eventEnd).ifPresent(created);
            }
            eventStart = eventEnd;
        }
        writeUnflushed(pending, kept, end - kept);
        flush();
        System.arraycopy(pending, end, pending, 0, pendingLength - end);
        pendingLength -= end;
    }

    /**
     * Counts the usage an event reports, and says whether it goes to the caller: all do but the
     * usage-only chunk the gateway asked for itself. Only events that carry a usage object are parsed,
     * and, when the facts are wanted, the first and those that carry a chat choice's finish reason
     * (the others state them along with their usage).
     */
    private boolean keep(int from, int to) {
        int data = indexOf(DATA, from, to);
        if (data < 0) {
            return true;
        }
        boolean reportsUsage = hasUsageObject(from, to);
        if (!reportsUsage && !(factsWanted && (!factsBegun || hasString(FINISH_REASON, from, to)))) {
            return true;
        }
        int json = data + DATA.length;
        int lineEnd = json;
        while (lineEnd < to && pending[lineEnd] != '\n' && pending[lineEnd] != '\r') {
            lineEnd++;
        }
        JsonValue chunk = parse(json, lineEnd);
        if (factsWanted) {
            factsBegun = true;
            facts = format.usage().factsInEvent(facts, chunk);
        }
        if (!reportsUsage) {
            return true;
        }
        usage = format.usage().inEvent(usage, chunk);
        return !(hideUsageChunk && chunk instanceof JsonObject object
                && object.get("choices") instanceof JsonArray choices && choices.isEmpty());
    }

    /** Whether the event holds {@code "usage"} followed by an object (all other chunks say {@code "usage":null}). */
    private boolean hasUsageObject(int from, int to) {
        int at = indexOf(USAGE, from, to);
        while (at >= 0) {
            int i = at + USAGE.length;
            while (i < to && (pending[i] == ' ' || pending[i] == ':')) {
                i++;
            }
            if (i < to && pending[i] == '{') {
                return true;
            }
            at = indexOf(USAGE, at + 1, to);
        }
        return false;
    }

    /** Whether the event holds the key {@code key} with a string for its value. */
    private boolean hasString(byte[] key, int from, int to) {
        for (int at = indexOf(key, from, to); at >= 0; at = indexOf(key, at + 1, to)) {
            int i = at + key.length;
            while (i < to && (pending[i] == ' ' || pending[i] == ':')) {
                i++;
            }
            if (i < to && pending[i] == '"') {
                return true;
            }
        }
        return false;
    }

    private JsonValue parse(int from, int to) {
        try (JsonReader reader = Jsons.PROVIDER.createReader(new ByteArrayInputStream(pending, from, to - from))) {
            return reader.readValue();
        } catch (JsonException | IllegalStateException e) {
            return JsonValue.NULL;
        }
    }

    private int indexOf(byte[] wanted, int from, int to) {
        outer:
        for (int i = from; i <= to - wanted.length; i++) {
            for (int j = 0; j < wanted.length; j++) {
                if (pending[i + j] != wanted[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /** Returns the index just past the first blank line after {@code from}, or {@code end}. */
    private int nextEventEnd(int from, int end) {
        for (int i = from + 1; i < end; i++) {
            if (pending[i] == '\n' && (pending[i - 1] == '\n'
                    || (i >= 3 && pending[i - 1] == '\r' && pending[i - 2] == '\n' && pending[i - 3] == '\r'))) {
                return i + 1;
            }
        }
        return end;
    }

    /** Writes bytes of {@code pending} that are not whole events, counting their text. */
    private void writeCounted(int from, int to) {
        textBytes += TextEstimate.textBytes(pending, from, to);
        write(pending, from, to - from);
    }

    /** The event that ends this stream when it is cut, following the events relayed. */
    byte[] cutEvent(String message, String code) {
        return notes.cutEvent(message, code);
    }

    /** Writes one event the gateway makes itself, such as an error, as a complete event. */
    void emit(byte[] event) {
        write(event, 0, event.length);
    }

    private void write(byte[] bytes, int offset, int length) {
        writeUnflushed(bytes, offset, length);
        flush();
    }

    private void writeUnflushed(byte[] bytes, int offset, int length) {
        if (length == 0) {
            return;
        }
        try {
            caller.write(bytes, offset, length);
        } catch (IOException | UncheckedIOException | ServerConnectionException e) {
            // Helidon reports a write to a connection that closed as a ServerConnectionException, unchecked.
            throw new CallerGone(e);
        }
    }

    private void flush() {
        try {
            caller.flush();
        } catch (IOException | UncheckedIOException | ServerConnectionException e) {
            throw new CallerGone(e);
        }
    }

    /** Returns the index just past the last blank line ({@code \n\n} or {@code \r\n\r\n}), or 0. */
    private int lastEventEnd() {
        for (int i = pendingLength - 1; i >= 1; i--) {
            if (pending[i] == '\n' && (pending[i - 1] == '\n'
                    || (i >= 3 && pending[i - 1] == '\r' && pending[i - 2] == '\n' && pending[i - 3] == '\r'))) {
                return i + 1;
            }
        }
        return 0;
    }

    /** Reading the upstream failed mid-stream. */
    static final class UpstreamBroke extends RuntimeException {
        UpstreamBroke(Exception cause) {
            super(cause);
        }
    }

    /** Writing to the caller failed: it went away. */
    static final class CallerGone extends RuntimeException {
        CallerGone(Exception cause) {
            super(cause);
        }
    }
}
