package io.aigw.runtime.upstream;

import io.aigw.runtime.error.Jsons;
import io.aigw.runtime.metering.UsageFormat;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.stream.JsonParser;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * The Responses API's streams: named events ({@code event: response.output_text.delta}), each
 * numbered by its {@code sequence_number}, the last {@code response.completed},
 * {@code response.failed} or {@code response.incomplete}; there is no {@code [DONE]}.
 */
final class ResponsesFormat implements WireFormat {
    private static final byte[] EVENT = "event:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA = "data:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TYPE = "\"type\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] SEQUENCE_NUMBER = "\"sequence_number\"".getBytes(StandardCharsets.US_ASCII);
    private static final String CREATED = "response.created";
    private static final String[] LAST_EVENTS = {"response.completed", "response.failed", "response.incomplete"};

    @Override
    public UsageFormat usage() {
        return UsageFormat.RESPONSES;
    }

    /** Whether the event is one a response ends with, by its {@code event:} line or else its data's {@code type}. */
    @Override
    public boolean endsStream(byte[] event, int from, int to) {
        String type = eventType(event, from, to);
        for (String last : LAST_EVENTS) {
            if (last.equals(type)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public byte[] cutEvent(String message, String code) {
        return errorEvent(message, code, 0);
    }

    /** The response's own {@code id}: the first member {@code id} of the answer's top-level object. */
    @Override
    public Optional<String> createdIn(byte[] json, int from, int to) {
        try (JsonParser parser = Jsons.PROVIDER.createParser(new ByteArrayInputStream(json, from, to - from))) {
            if (parser.next() != JsonParser.Event.START_OBJECT) {
                return Optional.empty();
            }
            while (parser.next() == JsonParser.Event.KEY_NAME) {
                boolean id = parser.getString().equals("id");
                JsonParser.Event value = parser.next();
                if (id) {
                    return value == JsonParser.Event.VALUE_STRING ? Optional.of(parser.getString()) : Optional.empty();
                }
                if (value == JsonParser.Event.START_OBJECT) {
                    parser.skipObject();
                } else if (value == JsonParser.Event.START_ARRAY) {
                    parser.skipArray();
                }
            }
        } catch (JsonException | IllegalStateException | NoSuchElementException e) {
            // The start of a larger answer may end before its id: then it names none.
        }
        return Optional.empty();
    }

    /** Keeps the last {@code sequence_number} relayed, and finds the response's id in {@code response.created}. */
    @Override
    public StreamNotes notes() {
        return new Notes();
    }

    /** One stream's notes. */
    private static final class Notes implements StreamNotes {
        private long lastSequence = -1;
        private boolean created;

        @Override
        public Optional<String> relayed(byte[] event, int from, int to) {
            long sequence = sequenceNumber(event, from, to);
            if (sequence >= 0) {
                lastSequence = sequence;
            }
            if (created || !CREATED.equals(eventType(event, from, to))) {
                return Optional.empty();
            }
            created = true;
            return createdResponse(event, from, to);
        }

        @Override
        public byte[] cutEvent(String message, String code) {
            return errorEvent(message, code, lastSequence + 1);
        }
    }

    /** The id of the response in a {@code response.created} event's data. */
    private static Optional<String> createdResponse(byte[] event, int from, int to) {
        int data = indexOf(event, from, to, DATA);
        if (data < 0) {
            return Optional.empty();
        }
        int end = data;
        while (end < to && event[end] != '\n' && event[end] != '\r') {
            end++;
        }
        try (var reader = Jsons.PROVIDER.createReader(new ByteArrayInputStream(event, data + DATA.length,
                end - data - DATA.length))) {
            if (reader.readValue() instanceof JsonObject object && object.get("response") instanceof JsonObject response
                    && response.get("id") instanceof jakarta.json.JsonString id) {
                return Optional.of(id.getString());
            }
        } catch (JsonException | IllegalStateException e) {
            // Not JSON: no id to remember.
        }
        return Optional.empty();
    }

    /**
     * The event's {@code sequence_number}, or -1: the first member of that name with a whole number
     * for its value, which only the event's own can be (a text holding the name has its quotes escaped).
     */
    static long sequenceNumber(byte[] event, int from, int to) {
        for (int at = indexOf(event, from, to, SEQUENCE_NUMBER); at >= 0;
             at = indexOf(event, at + 1, to, SEQUENCE_NUMBER)) {
            int i = skipBlanks(event, at + SEQUENCE_NUMBER.length, to);
            if (i >= to || event[i] != ':') {
                continue;
            }
            i = skipBlanks(event, i + 1, to);
            long number = 0;
            int digits = 0;
            while (i < to && event[i] >= '0' && event[i] <= '9' && digits < 18) {
                number = number * 10 + (event[i++] - '0');
                digits++;
            }
            if (digits > 0) {
                return number;
            }
        }
        return -1;
    }

    private static int indexOf(byte[] bytes, int from, int to, byte[] wanted) {
        outer:
        for (int i = from; i <= to - wanted.length; i++) {
            for (int j = 0; j < wanted.length; j++) {
                if (bytes[i + j] != wanted[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

    /**
     * The Responses API's {@code error} event, which its SDKs give as a {@code ResponseErrorEvent}:
     * {@code code} {@code timeout} when the gateway's timeout cut the stream, else {@code upstream_error}.
     */
    static byte[] errorEvent(String message, String code, long sequenceNumber) {
        String json = Jsons.PROVIDER.createObjectBuilder()
                .add("type", "error")
                .add("code", code != null ? code : "upstream_error")
                .add("message", message)
                .addNull("param")
                .add("sequence_number", sequenceNumber)
                .build().toString();
        return ("event: error\ndata: " + json + "\n\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * The event's type: its {@code event:} field, else the {@code type} its data starts with; null
     * when it has neither.
     */
    static String eventType(byte[] event, int from, int to) {
        int line = from;
        while (line < to) {
            int end = line;
            while (end < to && event[end] != '\n' && event[end] != '\r') {
                end++;
            }
            if (startsWith(event, line, end, EVENT)) {
                return value(event, line + EVENT.length, end);
            }
            if (startsWith(event, line, end, DATA)) {
                return dataType(event, line + DATA.length, end);
            }
            line = end + 1;
        }
        return null;
    }

    /** The {@code type} of a data line whose object starts with it, as every Responses event's does. */
    private static String dataType(byte[] event, int from, int to) {
        int at = skipBlanks(event, from, to);
        if (at >= to || event[at] != '{') {
            return null;
        }
        at = skipBlanks(event, at + 1, to);
        if (!startsWith(event, at, to, TYPE)) {
            return null;
        }
        at = skipBlanks(event, at + TYPE.length, to);
        if (at >= to || event[at] != ':') {
            return null;
        }
        at = skipBlanks(event, at + 1, to);
        if (at >= to || event[at] != '"') {
            return null;
        }
        int end = at + 1;
        while (end < to && event[end] != '"' && event[end] != '\\') {
            end++;
        }
        return end < to && event[end] == '"' ? new String(event, at + 1, end - at - 1, StandardCharsets.UTF_8) : null;
    }

    private static String value(byte[] event, int from, int to) {
        int at = from < to && event[from] == ' ' ? from + 1 : from;
        return new String(event, at, to - at, StandardCharsets.UTF_8);
    }

    private static int skipBlanks(byte[] bytes, int from, int to) {
        int at = from;
        while (at < to && (bytes[at] == ' ' || bytes[at] == '\t')) {
            at++;
        }
        return at;
    }

    private static boolean startsWith(byte[] bytes, int at, int to, byte[] prefix) {
        if (to - at < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[at + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
