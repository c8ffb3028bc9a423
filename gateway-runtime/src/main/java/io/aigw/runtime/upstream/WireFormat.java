package io.aigw.runtime.upstream;

import io.aigw.runtime.metering.UsageFormat;

/**
 * What relaying one API's answers needs to know of its wire format, beyond the bytes it passes
 * through untouched: where usage is reported, which event ends a stream, and how a stream the
 * gateway has to cut is ended for the caller's SDK to raise an error.
 */
public interface WireFormat {

    /** OpenAI's Chat Completions: a stream ends with {@code data: [DONE]}, a cut one with an error chunk. */
    WireFormat CHAT_COMPLETIONS = new ChatCompletionsFormat();

    /** OpenAI's Responses: named events, the last {@code response.completed} (or failed, incomplete). */
    WireFormat RESPONSES = new ResponsesFormat();

    /** Where the API reports usage. */
    UsageFormat usage();

    /**
     * Whether the event in {@code event[from, to)} (its lines, up to and including the blank line
     * that ends it) is the stream's own last one: a body that ends with its connection is whole only
     * once that event came.
     */
    boolean endsStream(byte[] event, int from, int to);

    /**
     * The event a stream cut after its first byte ends with: what the API's SDKs raise as an error.
     *
     * @param code {@code timeout} when the gateway's timeout cut it, else null
     */
    byte[] cutEvent(String message, String code);
}
