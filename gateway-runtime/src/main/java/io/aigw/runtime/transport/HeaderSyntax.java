package io.aigw.runtime.transport;

/**
 * The syntax of HTTP header names and values (RFC 9110, section 5), checked wherever a header the
 * gateway writes did not come from its own code: the few upstream headers passed on to the caller
 * ({@code RelayedHeaders}), so that an upstream cannot break or split the caller's answer, and a
 * provider's configured headers and key, once when the provider is made. Helidon's own check of
 * every header written (on by default since 4.5) is off for the answers to callers and for the
 * requests to upstreams: it would find again, on every request, what was checked here once or what
 * the gateway wrote itself.
 */
public final class HeaderSyntax {
    private HeaderSyntax() {
    }

    /** Whether {@code name} is a token: one or more visible ASCII characters other than separators. */
    public static boolean isName(String name) {
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
    public static boolean isValue(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if ((c < ' ' && c != '\t') || c == 0x7f || c > 0xff) {
                return false;
            }
        }
        return true;
    }
}
