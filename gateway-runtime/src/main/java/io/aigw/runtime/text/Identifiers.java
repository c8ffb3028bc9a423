package io.aigw.runtime.text;

/**
 * Which characters an identifier a caller chooses may hold. An identifier ends up in usage
 * records, reports, CSV exports and log lines, so it may hold none of the characters that break
 * one of them: no control character (C0, DEL, C1: PostgreSQL cannot store U+0000 in text at all,
 * and a failed insert took the records of other callers written in the same batch with it), no
 * bidirectional formatting character (which reorders what a terminal or a spreadsheet shows
 * around it, as in "Trojan Source"), no line or paragraph separator, and no unpaired surrogate
 * (which UTF-8 cannot encode).
 */
public final class Identifiers {
    private Identifiers() {
    }

    /** Whether {@code text} holds none of the characters an identifier may not hold. */
    public static boolean hasOnlyShowableCharacters(String text) {
        // A loop rather than codePoints(): it runs on every request's model id.
        for (int i = 0; i < text.length(); ) {
            int c = text.codePointAt(i);
            if (isRefused(c)) {
                return false;
            }
            i += Character.charCount(c);
        }
        return true;
    }

    /** Whether an identifier may not hold code point {@code c}: see the class comment. */
    public static boolean isRefused(int c) {
        return Character.isISOControl(c) || isBidiControl(c) || c == '\u2028' || c == '\u2029'
                || Character.getType(c) == Character.SURROGATE;
    }

    /** The characters of Unicode's Bidi_Control property (UAX #9): marks, embeddings, overrides, isolates. */
    static boolean isBidiControl(int c) {
        return c == '\u061c' || c == '\u200e' || c == '\u200f' || c >= '\u202a' && c <= '\u202e'
                || c >= '\u2066' && c <= '\u2069';
    }
}
