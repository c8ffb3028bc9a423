package io.aigw.runtime.api;

import io.aigw.runtime.api.BodySplice.Member;
import io.aigw.runtime.error.ApiException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;

/**
 * Validates an embeddings body in one pass over the caller's bytes, as {@link ChatRequestReader}
 * does a chat one: a JSON object with a {@code model} and an {@code input} that is a string, or a
 * non-empty array of strings, of token ids (whole numbers) or of arrays of token ids; every other
 * member ({@code encoding_format}, {@code dimensions}, {@code user}, any the gateway does not know)
 * is the upstream's to judge and goes through as it came.
 */
final class EmbeddingsRequestReader {
    private static final String INPUT_RULE = "'input' must be a string, or a non-empty array of strings, of token"
            + " ids (whole numbers) or of arrays of token ids.";

    private final JsonBytes json;
    private String model;
    private boolean inputSeen;
    private String user;

    private EmbeddingsRequestReader(byte[] body) {
        this.json = new JsonBytes(body);
    }

    /**
     * Validates a request body.
     *
     * @throws ApiException a 400 naming the field at fault
     */
    static EmbeddingsRequest read(byte[] body) {
        return new EmbeddingsRequestReader(body).read();
    }

    private EmbeddingsRequest read() {
        List<Member> members = RequestObject.members(json, this::member);
        if (model == null) {
            throw RequestObject.invalid("model", "The request must name a 'model', such as"
                    + " \"openai/text-embedding-3-small\".");
        }
        if (!inputSeen) {
            throw RequestObject.invalid("input", "The request must carry 'input', the text to embed: " + INPUT_RULE);
        }
        return new EmbeddingsRequest(model, Optional.ofNullable(user), new BodySplice(json.bytes(), model, members));
    }

    private void member(String name) {
        switch (name) {
            case "model" -> model = RequestObject.model(json);
            case "input" -> {
                readInput();
                inputSeen = true;
            }
            case "user" -> user = BodySession.read(json, 2);
            default -> json.requireValue(2);
        }
    }

    private void readInput() {
        if (json.peek() == '"') {
            requireText();
            return;
        }
        if (json.peek() != '[') {
            json.requireValue(2);
            throw invalidInput(INPUT_RULE);
        }
        json.advance();
        if (json.skipWhitespace() == ']') {
            throw invalidInput("'input' must not be an empty array: send at least one text or token array.");
        }
        int first = json.peek();
        boolean more = true;
        while (more) {
            if (first == '"' && json.peek() == '"') {
                requireText();
            } else if (first == '[' && json.peek() == '[') {
                readTokenArray();
            } else if (isNumber(first) && isNumber(json.peek())) {
                readTokenId(3);
            } else {
                json.requireValue(3);
                throw invalidInput("Every entry of 'input' must be of one kind: " + INPUT_RULE);
            }
            more = json.nextInContainer(']');
        }
        json.advance();
    }

    private void readTokenArray() {
        json.advance();
        if (json.skipWhitespace() == ']') {
            throw invalidInput("An array of token ids in 'input' must not be empty.");
        }
        boolean more = true;
        while (more) {
            if (!isNumber(json.peek())) {
                json.requireValue(4);
                throw invalidInput("An array in 'input' must hold token ids, whole numbers: " + INPUT_RULE);
            }
            readTokenId(4);
            more = json.nextInContainer(']');
        }
        json.advance();
    }

    private void requireText() {
        int start = json.position();
        json.requireValue(3);
        if (json.position() - start == 2) {
            throw invalidInput("'input' must not hold an empty string: there is nothing to embed.");
        }
    }

    /** A token id: a whole number of at least zero, written with digits alone. */
    private void readTokenId(int depth) {
        int start = json.position();
        json.requireValue(depth);
        for (int i = start; i < json.position(); i++) {
            byte b = json.bytes()[i];
            if (b < '0' || b > '9') {
                throw invalidInput("A token id in 'input' must be a whole number of at least zero, not "
                        + new String(json.bytes(), start, Math.min(json.position() - start, 40),
                        StandardCharsets.UTF_8) + ".");
            }
        }
    }

    private static boolean isNumber(int c) {
        return c == '-' || c >= '0' && c <= '9';
    }

    private static ApiException invalidInput(String message) {
        return RequestObject.invalid("input", message);
    }
}
