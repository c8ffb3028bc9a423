package io.aigw.runtime.upstream;

import io.aigw.runtime.error.ErrorShape;
import io.aigw.runtime.metering.UsageFormat;
import java.nio.charset.StandardCharsets;

/**
 * Anthropic's Messages streams: named events ({@code event: message_start} then its {@code data:}),
 * the last {@code message_stop}; an error mid-stream is an {@code error} event, which the Anthropic
 * SDKs raise.
 */
final class MessagesFormat implements WireFormat {
    private static final byte[] EVENT = "event:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA = "data:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] MESSAGE_STOP = "message_stop".getBytes(StandardCharsets.US_ASCII);
    /** How a stream without {@code event:} lines (some compatible upstreams) ends. */
    private static final byte[] MESSAGE_STOP_DATA = "{\"type\":\"message_stop\"".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] ERROR_EVENT = "event: error\ndata: ".getBytes(StandardCharsets.US_ASCII);

    @Override
    public UsageFormat usage() {
        return UsageFormat.MESSAGES;
    }

    /** Whether the event is {@code event: message_stop}, or starts with a {@code message_stop} {@code data:}. */
    @Override
    public boolean endsStream(byte[] event, int from, int to) {
        if (startsWith(event, from, to, EVENT)) {
            int at = skipSpaces(event, from + EVENT.length, to);
            int end = at + MESSAGE_STOP.length;
            return startsWith(event, at, to, MESSAGE_STOP) && (end == to || event[end] == '\n' || event[end] == '\r'
                    || event[end] == ' ');
        }
        return startsWith(event, from, to, DATA)
                && startsWith(event, skipSpaces(event, from + DATA.length, to), to, MESSAGE_STOP_DATA);
    }

    /** An {@code error} event holding an {@code api_error}, as Anthropic ends a stream that failed. */
    @Override
    public byte[] cutEvent(String message, String code) {
        byte[] json = ErrorShape.anthropic(ErrorShape.anthropicType(500), message, null);
        byte[] event = new byte[ERROR_EVENT.length + json.length + 2];
        System.arraycopy(ERROR_EVENT, 0, event, 0, ERROR_EVENT.length);
        System.arraycopy(json, 0, event, ERROR_EVENT.length, json.length);
        event[event.length - 2] = '\n';
        event[event.length - 1] = '\n';
        return event;
    }

    private static int skipSpaces(byte[] bytes, int at, int to) {
        int i = at;
        while (i < to && bytes[i] == ' ') {
            i++;
        }
        return i;
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
