package io.aigw.runtime.upstream;

import io.aigw.runtime.metering.UsageFormat;
import java.util.Optional;

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

    /** Anthropic's Messages: a stream ends with {@code message_stop}, a cut one with an {@code error} event. */
    WireFormat MESSAGES = new MessagesFormat();
    /** OpenAI's Embeddings: whole answers only, their usage input tokens alone. */
    WireFormat EMBEDDINGS = new EmbeddingsFormat();

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

    /**
     * The id of what the upstream created, when the API keeps its answers for later calls (a
     * Responses answer's {@code id}), in a whole answer or the start of one, {@code json[from, to)};
     * by default the API keeps nothing.
     */
    default Optional<String> createdIn(byte[] json, int from, int to) {
        return Optional.empty();
    }

    /** What the relay of one stream keeps of it as it goes: by default nothing. */
    default StreamNotes notes() {
        return new StreamNotes() {
            @Override
            public Optional<String> relayed(byte[] event, int from, int to) {
                return Optional.empty();
            }

            @Override
            public byte[] cutEvent(String message, String code) {
                return WireFormat.this.cutEvent(message, code);
            }
        };
    }

    /** What a format keeps of one stream, for an API whose events number themselves or name what they create. */
    interface StreamNotes {
        /**
         * Notes the event in {@code event[from, to)}, relayed to the caller.
         *
         * @return the id of what the upstream created, when this event is the one that names it
         */
        Optional<String> relayed(byte[] event, int from, int to);

        /** The event this stream ends with when it is cut: {@link WireFormat#cutEvent}, numbered to follow what was relayed. */
        byte[] cutEvent(String message, String code);
    }
}
