package io.aigw.runtime.api;

/**
 * The session a request body names, for callers that send no session header
 * ({@link RequestSession}, where a header wins): OpenAI's {@code prompt_cache_key}, else its {@code user},
 * and Anthropic's {@code metadata.user_id}. The endpoint's reader picks the field up in its one
 * walk of the body; a body that names none costs nothing more, and the body goes upstream as it came.
 */
final class BodySession {

    private BodySession() {
    }

    /**
     * Reads the value here and steps past it: its text when it is a string with more than white
     * space, else null. Any other value is the upstream's to judge, as it would be without the gateway.
     */
    static String read(JsonBytes json, int depth) {
        if (json.peek() != '"') {
            json.requireValue(depth);
            return null;
        }
        String id = json.readString().strip();
        return id.isEmpty() ? null : id;
    }

    /** Reads Anthropic's {@code metadata} here, which Claude Code fills, and returns its {@code user_id}, or null. */
    static String readMetadataUserId(JsonBytes json) {
        if (json.peek() != '{') {
            json.requireValue(2);
            return null;
        }
        json.advance();
        String userId = null;
        boolean more = json.skipWhitespace() != '}';
        while (more) {
            String name = json.readName(RequestObject.MAX_NAME_BYTES);
            json.expect(':');
            json.skipWhitespace();
            if (name.equals("user_id")) {
                userId = read(json, 3);
            } else {
                json.requireValue(3);
            }
            more = json.nextInContainer('}');
        }
        json.advance();
        return userId;
    }
}
