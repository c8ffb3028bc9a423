package io.aigw.runtime.text;

/**
 * Writes text a caller (or an upstream) chose into a log line, so that the line stays one line
 * and reads as written: every character an {@linkplain Identifiers identifier may not hold}
 * (control, bidirectional formatting, line separator, unpaired surrogate) is written as its
 * {@code \}{@code uXXXX} escape, which is also how a JSON string may carry it. A log viewer or
 * terminal then shows no forged line, no reordered text and no escape sequence of the caller's.
 */
public final class LogText {
    private LogText() {
    }

    /** {@code text} with each such character escaped; {@code text} itself when it holds none. */
    public static String escaped(String text) {
        int first = firstToEscape(text, 0, text.length());
        if (first == text.length()) {
            return text;
        }
        StringBuilder shown = new StringBuilder(text.length() + 16);
        appendEscaped(shown, text, 0, text.length());
        return shown.toString();
    }

    /** The index of the first char in {@code text[from, to)} to escape, or {@code to}. */
    public static int firstToEscape(CharSequence text, int from, int to) {
        for (int i = from; i < to; i++) {
            if (mustEscape(text, i, to)) {
                return i;
            }
        }
        return to;
    }

    /** Appends {@code text[from, to)} with each such character escaped. */
    public static void appendEscaped(StringBuilder line, CharSequence text, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            if (mustEscape(text, i, to)) {
                appendUnicodeEscape(line, c);
            } else {
                line.append(c);
            }
        }
    }

    /** Whether the char at {@code i} must be escaped; a surrogate only when it has no partner within {@code to}. */
    public static boolean mustEscape(CharSequence text, int i, int to) {
        char c = text.charAt(i);
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= to || !Character.isLowSurrogate(text.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(text.charAt(i - 1));
        }
        return Identifiers.isRefused(c);
    }

    /** Appends {@code \}{@code uXXXX} for {@code c}, in lower-case hex. */
    public static void appendUnicodeEscape(StringBuilder line, char c) {
        line.append("\\u");
        for (int shift = 12; shift >= 0; shift -= 4) {
            line.append(Character.forDigit((c >> shift) & 0xf, 16));
        }
    }
}
