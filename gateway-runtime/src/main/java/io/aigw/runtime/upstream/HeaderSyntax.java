package io.aigw.runtime.upstream;

/**
 * The syntax of HTTP header names and values (RFC 9110, section 5), checked on the few upstream
 * headers the gateway passes on to its caller ({@link RelayedHeaders}). The upstream client does
 * not validate the headers it parses: that copied and checked every header of every answer, and a
 * malformed header the caller would never see turned the whole answer into a 502. What the caller
 * does see gets this check, so that an upstream cannot break or split the caller's answer.
 */
final class HeaderSyntax {
    private HeaderSyntax() {
    }

    /** Whether {@code name} is a token: one or more visible ASCII characters other than separators. */
    static boolean isName(String name) {
        if (name.isEmpty()) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c <= ' ' || c >= 0x7f || "\"(),/:;<=>?@[\\]{}".indexOf(c) >= 0) {
                return false;
            }
        }
        return true;
    }

    /** Whether {@code value} holds only visible characters, spaces, tabs and obsolete text (bytes 0x80-0xFF). */
    static boolean isValue(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < ' ' && c != '\t') || c == 0x7f || c > 0xff) {
                return false;
            }
        }
        return true;
    }
}
