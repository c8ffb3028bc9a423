package io.aigw.runtime.api;

import io.aigw.runtime.api.BodySplice.Member;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.text.Identifiers;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Validates a chat completion body in one pass over the caller's bytes, reading the few fields the
 * gateway needs and noting where every top-level member stands, so that {@link BodySplice} can
 * change the body without re-serialising it. Nothing of the body is copied but the model and the
 * top-level field names: a request of some megabytes costs its bytes and no more, where a JSON
 * parser would hold the text as characters and the largest string in a buffer of its own.
 */
final class ChatRequestReader {
    /** Deeper documents are refused: no real request nests this far. */
    static final int MAX_DEPTH = 256;
    /** Top-level field names are decoded to be compared; none that OpenAI knows is near this long. */
    static final int MAX_NAME_BYTES = 1024;
    /**
     * The longest model id accepted, as long as an allow-list pattern may be: ids the providers use
     * are under a hundred characters, and a key's patterns are matched against it on every request.
     */
    static final int MAX_MODEL_CHARS = 300;

    private final JsonBytes json;

    private ChatRequestReader(byte[] body) {
        this.json = new JsonBytes(body);
    }

    /**
     * Validates a request body: a JSON object in UTF-8 with a non-empty string {@code model}, an
     * array of objects {@code messages}, an optional boolean {@code stream}, and no key twice.
     *
     * @throws ApiException a 400 naming the field at fault
     */
    static ChatRequest read(byte[] body) {
        return new ChatRequestReader(body).read();
    }

    private ChatRequest read() {
        if (json.startsWithByteOrderMark()) {
            // Some Windows tools write one; JSON sent over a network must not (RFC 8259, section 8.1).
            throw invalid(null, "The request body starts with a byte order mark; send the JSON without one.");
        }
        if (json.skipWhitespace() != '{') {
            json.requireValue(1);
            throw invalid(null, "The request body must be a JSON object.");
        }
        json.advance();
        List<Member> members = new ArrayList<>();
        Set<String> names = new HashSet<>();
        String model = null;
        boolean stream = false;
        boolean includeUsage = false;
        boolean messagesSeen = false;
        long maxCompletionTokens = -1;
        long maxTokens = -1;
        String promptCacheKey = null;
        String user = null;
        int previousEnd = -1;
        boolean more = json.skipWhitespace() != '}';
        while (more) {
            int keyStart = json.position();
            String name = json.readName(MAX_NAME_BYTES);
            if (!names.add(name)) {
                throw invalid(name, "The field '" + name + "' appears more than once.");
            }
            json.expect(':');
            json.skipWhitespace();
            int valueStart = json.position();
            switch (name) {
                case "model" -> model = readModel(json);
                case "messages" -> {
                    readMessages(json);
                    messagesSeen = true;
                }
                case "stream" -> stream = readStream(json);
                case BodySplice.STREAM_OPTIONS -> includeUsage = readIncludeUsage();
                case "max_completion_tokens" -> maxCompletionTokens = readCount(json);
                case "max_tokens" -> maxTokens = readCount(json);
                case "prompt_cache_key" -> promptCacheKey = BodySession.read(json, 2);
                case "user" -> user = BodySession.read(json, 2);
                default -> json.requireValue(2);
            }
            int valueEnd = json.position();
            members.add(new Member(name, keyStart, valueStart, valueEnd, previousEnd));
            previousEnd = valueEnd;
            more = json.nextInContainer('}');
        }
        json.advance();
        json.requireEnd();
        if (model == null) {
            throw invalid("model", "The request must name a 'model', such as \"openai/gpt-5\" or \"gateway/auto\".");
        }
        if (!messagesSeen) {
            throw invalid("messages", "The request must carry 'messages', an array of message objects.");
        }
        return new ChatRequest(model, stream, includeUsage, maxCompletionTokens >= 0 ? maxCompletionTokens : maxTokens,
                Optional.ofNullable(promptCacheKey != null ? promptCacheKey : user),
                new BodySplice(json.bytes(), model, List.copyOf(members)));
    }

    /** Reads {@code model}: a non-empty string of showable characters, as long as an allow-list pattern may be. */
    static String readModel(JsonBytes json) {
        if (json.peek() != '"') {
            json.requireValue(2);
            throw invalid("model", "'model' must be a string such as \"openai/gpt-5\".");
        }
        String model = json.readString();
        if (model.isBlank()) {
            throw invalid("model", "'model' must not be empty.");
        }
        if (model.length() > MAX_MODEL_CHARS) {
            throw invalid("model", "'model' is " + model.length() + " characters long; the gateway accepts model ids"
                    + " of at most " + MAX_MODEL_CHARS + ".");
        }
        if (!Identifiers.hasOnlyShowableCharacters(model)) {
            // It would reach the usage records, where PostgreSQL refuses a NUL, and the logs.
            throw invalid("model", "'model' must not hold control or bidirectional formatting characters.");
        }
        return model;
    }

    static void readMessages(JsonBytes json) {
        if (json.peek() != '[') {
            json.requireValue(2);
            throw invalid("messages", "'messages' must be an array of message objects.");
        }
        json.advance();
        boolean more = json.skipWhitespace() != ']';
        while (more) {
            if (json.peek() != '{') {
                json.requireValue(3);
                throw invalid("messages", "Every entry of 'messages' must be an object.");
            }
            json.requireValue(3);
            more = json.nextInContainer(']');
        }
        json.advance();
    }

    /** Reads {@code stream_options}, which must be an object or null; returns its {@code include_usage}. */
    private boolean readIncludeUsage() {
        if (json.peek() == 'n') {
            json.requireValue(2);
            return false;
        }
        if (json.peek() != '{') {
            json.requireValue(2);
            throw invalid(BodySplice.STREAM_OPTIONS,
                    "'stream_options' must be an object such as {\"include_usage\": true}.");
        }
        json.advance();
        boolean includeUsage = false;
        boolean more = json.skipWhitespace() != '}';
        while (more) {
            String option = json.readName(MAX_NAME_BYTES);
            json.expect(':');
            json.skipWhitespace();
            if (option.equals("include_usage")) {
                includeUsage = json.peek() == 't';
            }
            json.requireValue(3);
            more = json.nextInContainer('}');
        }
        json.advance();
        return includeUsage;
    }

    /**
     * A token count such as {@code max_tokens}, or -1 when it is not a whole number of at least
     * zero: the gateway only reads it to estimate a request, and leaves judging it to the upstream.
     */
    static long readCount(JsonBytes json) {
        int start = json.position();
        json.requireValue(2);
        long count = 0;
        for (int i = start; i < json.position(); i++) {
            int digit = json.bytes()[i] - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            count = Math.min(Long.MAX_VALUE / 4, count > Long.MAX_VALUE / 40 ? count : count * 10 + digit);
        }
        return count;
    }

    /** Reads {@code stream}: true, false or null (false). */
    static boolean readStream(JsonBytes json) {
        int first = json.peek();
        json.requireValue(2);
        return switch (first) {
            case 't' -> true;
            case 'f', 'n' -> false;
            default -> throw invalid("stream", "'stream' must be true or false.");
        };
    }

    static ApiException invalid(String param, String message) {
        return new ApiException(ApiError.invalidRequest(param, message));
    }
}
