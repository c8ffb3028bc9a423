package io.aigw.runtime.api;

import io.aigw.runtime.api.BodySplice.Member;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Validates an Anthropic Messages body in one pass over the caller's bytes, as
 * {@link ChatRequestReader} does a chat completion's: the gateway reads {@code model},
 * {@code max_tokens}, {@code messages}, {@code stream} and the session {@code metadata.user_id}
 * names, and leaves every other field ({@code system}, {@code tools}, {@code thinking}, fields it
 * does not know) to the upstream, untouched.
 */
final class MessagesRequestReader {
    private final JsonBytes json;

    private MessagesRequestReader(byte[] body) {
        this.json = new JsonBytes(body);
    }

    /**
     * Validates a body: a JSON object with a {@code model}, an array of objects {@code messages},
     * an optional boolean {@code stream}, no key twice and, where {@code maxTokensRequired} (the
     * Messages API, not its token count), {@code max_tokens}, a whole number of at least 1.
     *
     * @throws ApiException a 400 naming the field at fault
     */
    static MessagesRequest read(byte[] body, boolean maxTokensRequired) {
        return new MessagesRequestReader(body).read(maxTokensRequired);
    }

    private MessagesRequest read(boolean maxTokensRequired) {
        if (json.startsWithByteOrderMark()) {
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
        boolean messagesSeen = false;
        long maxTokens = -1;
        boolean maxTokensSeen = false;
        String userId = null;
        int previousEnd = -1;
        boolean more = json.skipWhitespace() != '}';
        while (more) {
            int keyStart = json.position();
            String name = json.readName(ChatRequestReader.MAX_NAME_BYTES);
            if (!names.add(name)) {
                throw invalid(name, "The field '" + name + "' appears more than once.");
            }
            json.expect(':');
            json.skipWhitespace();
            int valueStart = json.position();
            switch (name) {
                case "model" -> model = ChatRequestReader.readModel(json);
                case "messages" -> {
                    ChatRequestReader.readMessages(json);
                    messagesSeen = true;
                }
                case "stream" -> stream = ChatRequestReader.readStream(json);
                case "max_tokens" -> {
                    maxTokens = ChatRequestReader.readCount(json);
                    maxTokensSeen = true;
                }
                case "metadata" -> userId = BodySession.readMetadataUserId(json);
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
            throw invalid("model", "The request must name a 'model', such as \"claude-sonnet-4-5\".");
        }
        if (!messagesSeen) {
            throw invalid("messages", "The request must carry 'messages', an array of message objects.");
        }
        if (maxTokensRequired && !maxTokensSeen) {
            throw invalid("max_tokens", "The request must set 'max_tokens', the most tokens the answer may use.");
        }
        if (maxTokensRequired && maxTokens < 1) {
            throw invalid("max_tokens", "'max_tokens' must be a whole number of at least 1.");
        }
        return new MessagesRequest(model, stream, maxTokensRequired ? maxTokens : 0, Optional.ofNullable(userId),
                new BodySplice(json.bytes(), model, List.copyOf(members)));
    }

    private static ApiException invalid(String param, String message) {
        return new ApiException(ApiError.invalidRequest(param, message));
    }
}
