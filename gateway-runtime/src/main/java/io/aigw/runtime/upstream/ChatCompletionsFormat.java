package io.aigw.runtime.upstream;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.metering.UsageFormat;
import java.nio.charset.StandardCharsets;

/** Chat Completions' streams: {@code data:} events only, the last {@code data: [DONE]}. */
final class ChatCompletionsFormat implements WireFormat {
    private static final byte[] DATA = "data:".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DONE = "[DONE]".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] DATA_SPACE = "data: ".getBytes(StandardCharsets.US_ASCII);

    @Override
    public UsageFormat usage() {
        return UsageFormat.CHAT_COMPLETIONS;
    }

    /** Whether the event is {@code data: [DONE]}, with or without the space. */
    @Override
    public boolean endsStream(byte[] event, int from, int to) {
        if (to - from < DATA.length + DONE.length || !startsWith(event, from, DATA)) {
            return false;
        }
        int at = from + DATA.length;
        if (event[at] == ' ') {
            at++;
        }
        return to - at >= DONE.length && startsWith(event, at, DONE);
    }

    /** One {@code data:} event holding an OpenAI-shaped error, which the OpenAI SDKs raise. */
    @Override
    public byte[] cutEvent(String message, String code) {
        byte[] json = ApiError.toJson(message, "upstream_error", null, code);
        byte[] event = new byte[DATA_SPACE.length + json.length + 2];
        System.arraycopy(DATA_SPACE, 0, event, 0, DATA_SPACE.length);
        System.arraycopy(json, 0, event, DATA_SPACE.length, json.length);
        event[event.length - 2] = '\n';
        event[event.length - 1] = '\n';
        return event;
    }

    private static boolean startsWith(byte[] bytes, int at, byte[] prefix) {
        for (int i = 0; i < prefix.length; i++) {
            if (bytes[at + i] != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
