package io.aigw.runtime.admin;

/**
 * How deep a JSON text nests, read before it is parsed: JSON-B reads a value it binds whole (a
 * {@code JsonValue} member) and the parser skips an unknown member without a depth bound, so a
 * body of a few hundred kilobytes of brackets would otherwise be walked, or built, in full.
 */
final class JsonDepth {
    /** Deeper admin bodies are refused; the deepest real one (a policy's list of models) nests 2. */
    static final int MAX = 32;

    private JsonDepth() {
    }

    /** Whether {@code text} opens more than {@link #MAX} arrays and objects inside one another. */
    static boolean exceedsMax(String text) {
        int depth = 0;
        boolean inString = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (inString) {
                if (c == '\\') {
                    i++;
                } else if (c == '"') {
                    inString = false;
                }
            } else if (c == '"') {
                inString = true;
            } else if (c == '[' || c == '{') {
                if (++depth > MAX) {
                    return true;
                }
            } else if (c == ']' || c == '}') {
                depth--;
            }
        }
        return false;
    }
}
