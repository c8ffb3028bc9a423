package io.aigw.runtime.upstream;

import io.aigw.runtime.error.Jsons;
import io.aigw.runtime.metering.UsageFormat;
import java.nio.charset.StandardCharsets;

/**
 * The Responses API's streams: named events ({@code event: response.output_text.delta}), each
 * numbered by its {@code sequence_number}, the last {@code response.completed},
 * {@code response.failed} or {@code response.incomplete}; there is no {@code [DONE]}.
 */
final class ResponsesFormat implements WireFormat {
    private static final byte[] EVENT = "event:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA = "data:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TYPE = "\"type\"".getBytes(StandardCharsets.US_ASCII);
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
