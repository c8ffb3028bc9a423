package io.aigw.runtime.api;

/**
 * Where a JSON syntax error is, said in the caller's terms: the line and column within the body,
 * counted in characters, never past the body's end.
 */
final class JsonSyntax {
    private JsonSyntax() {
    }

    /** A body cut short: where it ends. */
    static String endsEarly(byte[] json) {
        return "it ends too early, after " + position(json, Math.max(0, json.length - 1)) + ".";
    }

    /** {@code shown} found at byte {@code at}, where JSON allows no such thing. */
    static String unexpected(String shown, byte[] json, int at) {
        return "unexpected " + shown + " at " + position(json, at) + ".";
    }

    /** Line and column (from 1, in characters) of the character starting at byte {@code at} of UTF-8 {@code json}. */
    private static String position(byte[] json, int at) {
        int line = 1;
        int column = 1;
        for (int i = 0; i < at; i++) {
            if (json[i] == '\n') {
                line++;
                column = 1;
            } else if ((json[i] & 0xC0) != 0x80) {
                column++;
            }
        }
        return "line " + line + ", column " + column;
    }
}
