package io.aigw.runtime.api;

import io.aigw.runtime.error.ApiException;
import java.nio.charset.StandardCharsets;

/**
 * A strict JSON (RFC 8259) reader over UTF-8 bytes that validates values without copying them:
 * a string is checked in place and decoded only when asked for. Each failure is a 400 saying what
 * is wrong and at which byte.
 */
final class JsonBytes {
    private final byte[] json;
    private int at;

    JsonBytes(byte[] json) {
        this.json = json;
    }

    byte[] bytes() {
        return json;
    }

    int position() {
        return at;
    }

    boolean startsWithByteOrderMark() {
        return json.length >= 3 && (json[0] & 0xFF) == 0xEF && (json[1] & 0xFF) == 0xBB && (json[2] & 0xFF) == 0xBF;
    }

    /** The byte here (0-255), or -1 at the end. */
    int peek() {
        return at < json.length ? json[at] & 0xFF : -1;
    }

    void advance() {
        at++;
    }

    /** Skips JSON's white space; returns the byte it stops at, or -1 at the end. */
    int skipWhitespace() {
        while (at < json.length && BodySplice.isWhitespace(json[at])) {
            at++;
        }
        return peek();
    }

    /** Requires {@code c} after any white space, and steps past it. */
    void expect(char c) {
        if (skipWhitespace() != c) {
            throw unexpected();
        }
        at++;
    }

    /**
     * After a member or element: steps past a comma and the white space after it and returns true,
     * or returns false at {@code close}, which it leaves for the caller to step past.
     */
    boolean nextInContainer(char close) {
        int c = skipWhitespace();
        if (c == ',') {
            at++;
            skipWhitespace();
            return true;
        }
        if (c != close) {
            throw unexpected();
        }
        return false;
    }

    /** Requires nothing but white space to follow. */
    void requireEnd() {
        if (skipWhitespace() != -1) {
            throw RequestObject.invalid(null, "The request body has content after its JSON object.");
        }
    }

    /** Reads an object member's name, refusing one longer than {@code maxBytes} as it was sent. */
    String readName(int maxBytes) {
        if (peek() != '"') {
            throw unexpected();
        }
        int start = at;
        boolean escaped = skipString();
        if (at - start - 2 > maxBytes) {
            throw RequestObject.invalid(null, "A field name in the request is longer than " + maxBytes + " bytes.");
        }
        return decode(start + 1, at - 1, escaped);
    }

    /** Reads the string value here. */
    String readString() {
        if (peek() != '"') {
            throw unexpected();
        }
        int start = at;
        boolean escaped = skipString();
        return decode(start + 1, at - 1, escaped);
    }

    /**
     * Validates the value here, of any type, and steps past it.
     *
     * @param depth how deep a container starting here would be, the top-level object being 1
     */
    void requireValue(int depth) {
        int c = skipWhitespace();
        switch (c) {
            case '{', '[' -> {
                if (depth > RequestObject.MAX_DEPTH) {
                    throw RequestObject.invalid(null, "The request body nests deeper than "
                            + RequestObject.MAX_DEPTH + " levels.");
                }
                requireContainer(depth, c == '{' ? '}' : ']', c == '{');
            }
            case '"' -> skipString();
            case 't' -> requireLiteral("true");
            case 'f' -> requireLiteral("false");
            case 'n' -> requireLiteral("null");
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    requireNumber();
                } else {
                    throw unexpected();
                }
            }
        }
    }

    private void requireContainer(int depth, char close, boolean object) {
        at++;
        boolean more = skipWhitespace() != close;
        while (more) {
            if (object) {
                if (peek() != '"') {
                    throw unexpected();
                }
                skipString();
                expect(':');
            }
            requireValue(depth + 1);
            more = nextInContainer(close);
        }
        at++;
    }

    private void requireLiteral(String literal) {
        for (int i = 0; i < literal.length(); i++) {
            if (peek() != literal.charAt(i)) {
                throw unexpected();
            }
            at++;
        }
    }

    /** A number as RFC 8259 spells it: no leading zeros, no bare dot, no hexadecimal, no NaN. */
    private void requireNumber() {
        if (peek() == '-') {
            at++;
        }
        if (peek() == '0') {
            at++;
        } else {
            requireDigits();
        }
        if (peek() == '.') {
            at++;
            requireDigits();
        }
        if (peek() == 'e' || peek() == 'E') {
            at++;
            if (peek() == '+' || peek() == '-') {
                at++;
            }
            requireDigits();
        }
    }

    private void requireDigits() {
        int from = at;
        while (peek() >= '0' && peek() <= '9') {
            at++;
        }
        if (at == from) {
            throw unexpected();
        }
    }

    /**
     * Steps past the string that starts here, validating its escapes and its UTF-8.
     *
     * @return whether it holds an escape, and so must be decoded by hand
     */
    private boolean skipString() {
        boolean escaped = false;
        at++;
        while (true) {
            int c = peek();
            if (c == '"') {
                at++;
                return escaped;
            }
            if (c == '\\') {
                escaped = true;
                at++;
                requireEscape();
            } else if (c < 0x20) {
                throw unexpected();
            } else if (c < 0x80) {
                at++;
            } else {
                at += utf8Sequence(at);
            }
        }
    }

    private void requireEscape() {
        int c = peek();
        if (c == 'u') {
            for (int i = 1; i <= 4; i++) {
                if (at + i >= json.length || Character.digit(json[at + i], 16) < 0) {
                    at += Math.min(i, json.length - at);
                    throw unexpected();
                }
            }
            at += 5;
        } else if (c >= 0 && "\"\\/bfnrt".indexOf(c) >= 0) {
            at++;
        } else {
            throw unexpected();
        }
    }

    /** The length of the well-formed UTF-8 sequence at {@code i} (Unicode, table 3-7), or a 400. */
    private int utf8Sequence(int i) {
        int lead = json[i] & 0xFF;
        int length;
        int low = 0x80;
        int high = 0xBF;
        if (lead >= 0xC2 && lead <= 0xDF) {
            length = 2;
        } else if (lead >= 0xE0 && lead <= 0xEF) {
            length = 3;
            low = lead == 0xE0 ? 0xA0 : 0x80;
            high = lead == 0xED ? 0x9F : 0xBF;
        } else if (lead >= 0xF0 && lead <= 0xF4) {
            length = 4;
            low = lead == 0xF0 ? 0x90 : 0x80;
            high = lead == 0xF4 ? 0x8F : 0xBF;
        } else {
            throw notUtf8();
        }
        for (int k = 1; k < length; k++) {
            int next = i + k < json.length ? json[i + k] & 0xFF : -1;
            if (next < (k == 1 ? low : 0x80) || next > (k == 1 ? high : 0xBF)) {
                throw notUtf8();
            }
        }
        return length;
    }

    private String decode(int from, int to, boolean escaped) {
        if (!escaped) {
            return new String(json, from, to - from, StandardCharsets.UTF_8);
        }
        StringBuilder text = new StringBuilder(to - from);
        int run = from;
        for (int i = from; i < to; i++) {
            if (json[i] != '\\') {
                continue;
            }
            text.append(new String(json, run, i - run, StandardCharsets.UTF_8));
            char c = (char) json[i + 1];
            if (c == 'u') {
                text.append((char) Integer.parseInt(new String(json, i + 2, 4, StandardCharsets.US_ASCII), 16));
                i += 5;
            } else {
                text.append(switch (c) {
                    case 'b' -> '\b';
                    case 'f' -> '\f';
                    case 'n' -> '\n';
                    case 'r' -> '\r';
                    case 't' -> '\t';
                    default -> c;
                });
                i += 1;
            }
            run = i + 1;
        }
        return text.append(new String(json, run, to - run, StandardCharsets.UTF_8)).toString();
    }

    /** What is wrong here: the body ends, is not UTF-8, or has a byte JSON does not allow at this place. */
    private ApiException unexpected() {
        int c = peek();
        if (c < 0) {
            return RequestObject.invalid(null, "The request body is not valid JSON: " + JsonSyntax.endsEarly(json));
        }
        if (c >= 0x80) {
            utf8Sequence(at);
        }
        String shown = c >= 0x21 && c < 0x7F ? "'" + (char) c + "'" : c >= 0x80 ? "a non-ASCII character"
                : String.format("the byte 0x%02X", c);
        return RequestObject.invalid(null, "The request body is not valid JSON: "
                + JsonSyntax.unexpected(shown, json, at));
    }

    private static ApiException notUtf8() {
        return RequestObject.invalid(null, "The request body is not valid UTF-8.");
    }
}
