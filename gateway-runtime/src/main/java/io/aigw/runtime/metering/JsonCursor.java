package io.aigw.runtime.metering;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A position in JSON bytes, with the steps a hand-written reader takes over values it does not want:
 * skipping them by their brackets, strings and literals, without validating them further.
 *
 * @param <L> where in the document a reader is, which decides the members it wants
 */
abstract sealed class JsonCursor<L> permits AnswerWalk, UsageObjectReader {
    private static final byte[] TRUE = ascii("true");
    private static final byte[] FALSE = ascii("false");
    private static final byte[] NULL = ascii("null");

    final byte[] json;
    final int end;
    int at;

    JsonCursor(byte[] json, int from, int end) {
        this.json = json;
        this.at = from;
        this.end = end;
    }

    /**
     * Reads the object that starts here, to just past its closing brace, handing each member to
     * {@link #value}; false to give up.
     */
    final boolean members(L level) {
        at++;
        skipBlanks();
        if (isAt('}')) {
            at++;
            return true;
        }
        while (true) {
            int keyStart = at + 1;
            if (!isAt('"') || !skipString(true)) {
                return false;
            }
            int keyEnd = at - 1;
            skipBlanks();
            if (!isAt(':')) {
                return false;
            }
            at++;
            skipBlanks();
            if (!value(level, keyStart, keyEnd)) {
                return false;
            }
            skipBlanks();
            if (isAt('}')) {
                at++;
                return true;
            }
            if (!isAt(',')) {
                return false;
            }
            at++;
            skipBlanks();
        }
    }

    /**
     * Reads the member named by {@code json[keyStart, keyEnd)} at {@code level} if it is one wanted,
     * else skips it; false to give up.
     */
    abstract boolean value(L level, int keyStart, int keyEnd);

    /** The index just past the JSON number that starts at {@code from}, or -1 where none is well-formed. */
    final int numberEnd(int from) {
        int i = from < end && json[from] == '-' ? from + 1 : from;
        int digits = i;
        if (i < end && json[i] == '0') {
            i++;
        } else {
            i = digitsEnd(i);
        }
        if (i == digits) {
            return -1;
        }
        if (i < end && json[i] == '.') {
            int fraction = i + 1;
            i = digitsEnd(fraction);
            if (i == fraction) {
                return -1;
            }
        }
        if (i < end && (json[i] == 'e' || json[i] == 'E')) {
            int exponent = i + 1 < end && (json[i + 1] == '+' || json[i + 1] == '-') ? i + 2 : i + 1;
            i = digitsEnd(exponent);
            if (i == exponent) {
                return -1;
            }
        }
        return i;
    }

    private int digitsEnd(int from) {
        int i = from;
        while (i < end && isDigit(json[i])) {
            i++;
        }
        return i;
    }

    /** Skips one value of any kind; false where it is malformed or runs past the end. */
    final boolean skipValue() {
        if (at >= end) {
            return false;
        }
        return switch (json[at]) {
            case '"' -> skipString(false);
            case '{', '[' -> skipContainer();
            case 't' -> skipLiteral(TRUE);
            case 'f' -> skipLiteral(FALSE);
            case 'n' -> skipLiteral(NULL);
            default -> (json[at] == '-' || isDigit(json[at])) && skipNumber();
        };
    }

    /**
     * Skips the string that starts here, to just past its closing quote. With {@code plain}, a
     * string holding an escape counts as not readable (a key must be compared as it is written).
     */
    final boolean skipString(boolean plain) {
        for (int i = at + 1; i < end; i++) {
            if (json[i] == '"') {
                at = i + 1;
                return true;
            }
            if (json[i] == '\\') {
                if (plain) {
                    return false;
                }
                i++;
            }
        }
        return false;
    }

    /** Skips a nested object or array by its brackets, strings inside included. */
    private boolean skipContainer() {
        int depth = 0;
        while (at < end) {
            byte b = json[at];
            if (b == '"') {
                if (!skipString(false)) {
                    return false;
                }
                continue;
            }
            if (b == '{' || b == '[') {
                depth++;
            } else if (b == '}' || b == ']') {
                depth--;
                if (depth == 0) {
                    at++;
                    return true;
                }
            }
            at++;
        }
        return false;
    }

    private boolean skipLiteral(byte[] literal) {
        if (at + literal.length > end || !Arrays.equals(json, at, at + literal.length, literal, 0, literal.length)) {
            return false;
        }
        at += literal.length;
        return true;
    }

    private boolean skipNumber() {
        int start = at;
        while (at < end && (json[at] == '-' || json[at] == '+' || json[at] == '.' || json[at] == 'e'
                || json[at] == 'E' || isDigit(json[at]))) {
            at++;
        }
        return at > start;
    }

    final void skipBlanks() {
        at = ReportedUsage.skipBlanks(json, at, end);
    }

    static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    final boolean isAt(char c) {
        return at < end && json[at] == c;
    }

    final boolean is(byte[] key, int from, int to) {
        return Arrays.equals(json, from, to, key, 0, key.length);
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
