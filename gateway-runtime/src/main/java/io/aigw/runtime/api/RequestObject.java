package io.aigw.runtime.api;

import io.aigw.runtime.api.BodySplice.Member;
import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.ApiException;
import io.aigw.runtime.text.Identifiers;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The top level of a request body as every endpoint's reader walks it: one JSON object in UTF-8,
 * no key twice, each member's value read by the endpoint's reader and its place noted for
 * {@link BodySplice}; and the {@code model}, held to the same rules on every endpoint.
 */
final class RequestObject {
    /** Deeper documents are refused: no real request nests this far. */
    static final int MAX_DEPTH = 256;
    /** Top-level field names are decoded to be compared; none that OpenAI knows is near this long. */
    static final int MAX_NAME_BYTES = 1024;
    /**
     * The longest model id accepted, as long as an allow-list pattern may be: ids the providers use
     * are under a hundred characters, and a key's patterns are matched against it on every request.
     */
    static final int MAX_MODEL_CHARS = 300;

    private RequestObject() {
    }

    /** Reads the value of the member {@code name}, where {@code json} stands, and steps past it. */
    interface MemberReader {
        void read(String name);
    }

    /**
     * Walks the body's object, giving each member's value to {@code reader}, and requires nothing
     * after it.
     *
     * @return every top-level member, in order
     * @throws ApiException a 400 naming what is wrong
     */
    static List<Member> members(JsonBytes json, MemberReader reader) {
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
            reader.read(name);
            int valueEnd = json.position();
            members.add(new Member(name, keyStart, valueStart, valueEnd, previousEnd));
            previousEnd = valueEnd;
            more = json.nextInContainer('}');
        }
        json.advance();
        json.requireEnd();
        return List.copyOf(members);
    }

    /** Reads {@code model}: a string, not blank, not too long, nothing a log or a database cannot hold. */
    static String model(JsonBytes json) {
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

    static ApiException invalid(String param, String message) {
        return new ApiException(ApiError.invalidRequest(param, message));
    }
}
