package io.aigw.runtime.api;

import static io.aigw.runtime.api.ChatRequestReader.invalid;

import io.aigw.runtime.api.BodySplice.Member;
import io.aigw.runtime.api.ResponsesRequest.Creations;
import io.aigw.runtime.routing.Route;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Validates a Responses API body ({@code POST /responses}) in one pass over the caller's bytes, as
 * {@link ChatRequestReader} does a chat body: the few fields the gateway needs are read, every other
 * one ({@code store}, {@code tools}, {@code instructions}, {@code reasoning}, fields the gateway does
 * not know) only checked to be JSON and left as it came.
 */
final class ResponsesRequestReader {
    private final JsonBytes json;
    private final Creations created;

    private ResponsesRequestReader(byte[] body, Creations created) {
        this.json = new JsonBytes(body);
        this.created = created;
    }

    /**
     * Validates a request body: a JSON object in UTF-8 with a non-empty string {@code model}, an
     * optional {@code input} that is a string or an array, an optional boolean {@code stream}, an
     * optional string {@code previous_response_id}, and no key twice.
     *
     * @param created told of the response an upstream creates for the request, as soon as it is named
     * @throws io.aigw.runtime.error.ApiException a 400 naming the field at fault
     */
    static ResponsesRequest read(byte[] body, Creations created) {
        return new ResponsesRequestReader(body, created).read();
    }

    private ResponsesRequest read() {
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
        long maxOutputTokens = -1;
        Optional<String> previous = Optional.empty();
        String promptCacheKey = null;
        String user = null;
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
                case "input" -> readInput();
                case "stream" -> stream = ChatRequestReader.readStream(json);
                case "max_output_tokens" -> maxOutputTokens = ChatRequestReader.readCount(json);
                case "previous_response_id" -> previous = readPreviousResponseId();
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
        return new ResponsesRequest(model, stream, maxOutputTokens, previous,
                Optional.ofNullable(promptCacheKey != null ? promptCacheKey : user),
                new BodySplice(json.bytes(), model, List.copyOf(members)), created);
    }

    private void readInput() {
        int first = json.peek();
        json.requireValue(2);
        if (first != '"' && first != '[') {
            throw invalid("input", "'input' must be a string or an array of input items.");
        }
    }

    private Optional<String> readPreviousResponseId() {
        int first = json.peek();
        if (first == 'n') {
            json.requireValue(2);
            return Optional.empty();
        }
        if (first != '"') {
            json.requireValue(2);
            throw invalid("previous_response_id", "'previous_response_id' must be the id of a response, a string.");
        }
        return Optional.of(json.readString());
    }
}
