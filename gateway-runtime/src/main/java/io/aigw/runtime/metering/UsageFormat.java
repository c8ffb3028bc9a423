package io.aigw.runtime.metering;

import jakarta.json.JsonValue;
import java.util.Optional;

/**
 * Where one API reports the tokens an answer used, in a whole answer and in a stream's events, read
 * into the gateway's one {@link TokenUsage}: each API names and nests its counts its own way.
 */
public interface UsageFormat {

    /** OpenAI's Chat Completions: {@code usage} with {@code prompt_tokens} and the rest. */
    UsageFormat CHAT_COMPLETIONS = new ChatCompletionsUsage();

    /** OpenAI's Responses: a response's {@code usage} with {@code input_tokens} and the rest. */
    UsageFormat RESPONSES = new ResponsesUsage();

    /** Anthropic's Messages: {@code usage} with {@code input_tokens}, the cache's two counts and {@code output_tokens}. */
    UsageFormat MESSAGES = new MessagesUsage();
    /** OpenAI's Embeddings: chat's {@code usage} without {@code completion_tokens}, as none were written. */
    UsageFormat EMBEDDINGS = new EmbeddingsUsage();

    /**
     * The usage a whole answer (or an error answer, which may report some) holds in
     * {@code json[offset, offset + length)}, which may be only the answer's end; empty when none.
     */
    Optional<TokenUsage> inAnswer(byte[] json, int offset, int length);

    /**
     * The stream's usage once {@code event}, one event's parsed {@code data}, is counted after the
     * events before it reported {@code sofar}: {@code sofar} itself when the event reports none. Only
     * events that hold a {@code "usage"} object are given.
     */
    TokenUsage inEvent(TokenUsage sofar, JsonValue event);

    /**
     * The usage of a whole answer in {@code json[offset, offset + length)}, as {@link #inAnswer}
     * reads it, and its {@link ResponseFacts}, read in one walk over the answer: what tracing asks
     * for. The facts of only the start of an answer are those found before it ends.
     */
    AnswerReading readAnswer(byte[] json, int offset, int length);

    /**
     * The {@link ResponseFacts} of the start of an answer too large to be read whole,
     * {@code json[offset, offset + length)}: those stated before it ends, its usage left unread.
     */
    ResponseFacts factsInStart(byte[] json, int offset, int length);

    /**
     * The stream's facts once {@code event}, one event's parsed {@code data}, is noted after the
     * events before it found {@code sofar}: {@code sofar} itself when the event states none.
     */
    ResponseFacts factsInEvent(ResponseFacts sofar, JsonValue event);
}
