package io.aigw.runtime.upstream;

import io.aigw.runtime.observe.TokenUsage;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads the three token counts of a {@code usage} object straight from the answer's bytes, in one
 * pass over its members, skipping every other value; every non-streamed answer goes through here.
 * By hand, since JSON-B or JSON-P take about seven times as long for the same object and allocate
 * over a hundred times as much ({@code UsageReaderBenchmark}).
 *
 * <p>Reads only the usual shape: keys without escapes and counts written as plain integers. On
 * anything else it gives up and returns null, and the caller parses the object properly. Values it
 * skips are not validated beyond their brackets, strings and literals.
 */
final class UsageObjectReader {
    private static final byte[] PROMPT_TOKENS = ascii("prompt_tokens");
    private static final byte[] COMPLETION_TOKENS = ascii("completion_tokens");
    private static final byte[] TOTAL_TOKENS = ascii("total_tokens");
    private static final byte[] TRUE = ascii("true");
    private static final byte[] FALSE = ascii("false");
    private static final byte[] NULL = ascii("null");
    /** Up to 18 digits always fit a long. */
    private static final int MAX_DIGITS = 18;
    private static final long GIVE_UP = Long.MIN_VALUE;

    private final byte[] json;
    private final int end;
    private int at;

    private UsageObjectReader(byte[] json, int from, int end) {
        this.json = json;
        this.at = from;
        this.end = end;
    }

    /**
     * The counts of the object that starts at {@code from} (its opening brace), -1 for a count that
     * is absent or not a number; null where the object is not of the usual shape or is malformed.
     */
    static TokenUsage read(byte[] json, int from, int end) {
        return new UsageObjectReader(json, from, end).object();
    }

    private TokenUsage object() {
        long prompt = -1;
        long completion = -1;
        long total = -1;
        at++;
        skipBlanks();
        if (isAt('}')) {
            return new TokenUsage(prompt, completion, total);
        }
        while (true) {
            int keyStart = at + 1;
            if (!isAt('"') || !skipString(true)) {
                return null;
            }
            int keyEnd = at - 1;
            skipBlanks();
            if (!isAt(':')) {
                return null;
            }
            at++;
            skipBlanks();
            if (is(PROMPT_TOKENS, keyStart, keyEnd)) {
                prompt = count();
            } else if (is(COMPLETION_TOKENS, keyStart, keyEnd)) {
                completion = count();
            } else if (is(TOTAL_TOKENS, keyStart, keyEnd)) {
                total = count();
            } else if (!skipValue()) {
                return null;
            }
            if (prompt == GIVE_UP || completion == GIVE_UP || total == GIVE_UP) {
                return null;
            }
            skipBlanks();
            if (isAt('}')) {
                return new TokenUsage(prompt, completion, total);
            }
            if (!isAt(',')) {
                return null;
            }
            at++;
            skipBlanks();
        }
    }

    /** A count: the integer here, -1 for another kind of value, GIVE_UP for another number or a malformed value. */
    private long count() {
        if (at >= end || (json[at] != '-' && !isDigit(json[at]))) {
            return skipValue() ? -1 : GIVE_UP;
        }
        boolean negative = json[at] == '-';
        int digits = negative ? at + 1 : at;
        int i = digits;
        long value = 0;
        while (i < end && isDigit(json[i])) {
            value = value * 10 + (json[i] - '0');
            i++;
        }
        int length = i - digits;
        boolean fraction = i < end && (json[i] == '.' || json[i] == 'e' || json[i] == 'E');
        if (length == 0 || length > MAX_DIGITS || fraction || (json[digits] == '0' && length > 1)) {
            return GIVE_UP;
        }
        at = i;
        return negative ? -value : value;
    }

    /** Skips one value of any kind; false where it is malformed or runs past the end. */
    private boolean skipValue() {
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
    private boolean skipString(boolean plain) {
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

    private void skipBlanks() {
        at = ReportedUsage.skipBlanks(json, at, end);
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    private boolean isAt(char c) {
        return at < end && json[at] == c;
    }

    private boolean is(byte[] key, int from, int to) {
        return Arrays.equals(json, from, to, key, 0, key.length);
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
