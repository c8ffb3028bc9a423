package io.aigw.runtime.api;

import jakarta.json.stream.JsonLocation;

/**
 * Where a JSON syntax error is, said in the caller's terms: the line and column within the body.
 * The parser's own message counts past the body's end for a body cut short and names characters by
 * their code.
 */
final class JsonSyntax {
    private JsonSyntax() {
    }

    /** What is wrong at {@code location} in {@code text}, with a line and column inside it. */
    static String describe(JsonLocation location, String text) {
        long offset = location == null ? -1 : location.getStreamOffset();
        if (offset < 0 || offset >= text.length()) {
            return "it ends too early, after " + position(text, Math.max(0, text.length() - 1)) + ".";
        }
        int at = (int) offset;
        int codePoint = text.codePointAt(at);
        String shown = codePoint < 0x20 || codePoint == 0x7f ? String.format("U+%04X", codePoint)
                : "'" + new String(Character.toChars(codePoint)) + "'";
        return "unexpected " + shown + " at " + position(text, at) + ".";
    }

    /** Line and column (from 1, in characters) of the character at {@code offset}. */
    private static String position(String text, int offset) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < offset; i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return "line " + line + ", column " + (offset - lineStart + 1);
    }
}
