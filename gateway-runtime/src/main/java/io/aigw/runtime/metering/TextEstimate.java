package io.aigw.runtime.metering;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * Estimates tokens where an upstream reported none: from the bytes of the text in a chat request's
 * or a stream chunk's JSON, the string values of the members that hold what a model reads or
 * writes ({@code content}, {@code text}, {@code reasoning_content}, {@code reasoning},
 * {@code refusal}, {@code arguments}), at four bytes a token, the rule of thumb the providers give
 * for English text. Markup, ids, images and JSON syntax are not counted. An estimate, not a count:
 * a tokenizer per model is more than the gateway can ship.
 */
public final class TextEstimate {
    /** Bytes of English text per token, as OpenAI and Anthropic put it. */
    static final int BYTES_PER_TOKEN = 4;
    private static final byte[][] TEXT_MEMBERS = members("content", "text", "reasoning_content", "reasoning",
            "refusal", "arguments");
    /** Eight bytes of a byte array as one long, the first in the lowest bits. */
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long QUOTES = 0x2222222222222222L;
    private static final long BACKSLASHES = 0x5C5C5C5C5C5C5C5CL;
    private static final long LOW_SEVEN_BITS = 0x7F7F7F7F7F7F7F7FL;

    private TextEstimate() {
    }

    /** Tokens for this many bytes of text: rounded up, so that any text is at least one token. */
    public static long tokens(long textBytes) {
        return (textBytes + BYTES_PER_TOKEN - 1) / BYTES_PER_TOKEN;
    }

    /**
     * The bytes of text in {@code json[from, to)}: the lengths, as written, of the string values of
     * the text members, at any depth. JSON that is cut short counts up to where it ends. A scan of
     * its own, not a {@link Tally}: the relay calls it on each of a stream's whole events, so it goes
     * from quote to quote eight bytes at a time, where a byte at a time took four fifths as long as
     * the rest of the relay ({@code SseRelayBenchmark}).
     */
    public static long textBytes(byte[] json, int from, int to) {
        long text = 0;
        int i = from;
        while (true) {
            int open = nextQuote(json, i, to);
            if (open >= to) {
                return text;
            }
            int end = stringEnd(json, open + 1, to);
            i = end + 1;
            if (end < to && isTextMember(json, open + 1, end)) {
                int colon = skipWhitespace(json, i, to);
                if (colon < to && json[colon] == ':') {
                    int value = colon + 1;
                    while (value < to && (json[value] == ':' || isWhitespace(json[value]))) {
                        value++;
                    }
                    if (value < to && json[value] == '"') {
                        int valueEnd = stringEnd(json, value + 1, to);
                        text += valueEnd - value - 1;
                        i = valueEnd + 1;
                    } else {
                        i = value;
                    }
                }
            }
        }
    }

    /** The index of the first quote in {@code json[from, to)}, or {@code to} (or more) when there is none. */
    private static int nextQuote(byte[] json, int from, int to) {
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long quotes = equalBytes((long) LONGS.get(json, i), QUOTES);
            if (quotes != 0) {
                return i + (Long.numberOfTrailingZeros(quotes) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (json[i] == '"') {
                return i;
            }
        }
        return i;
    }

    /** The index of the quote that ends the string starting at {@code from}, or {@code to}. */
    private static int stringEnd(byte[] json, int from, int to) {
        int i = from;
        while (i < to) {
            int special = nextQuoteOrEscape(json, i, to);
            if (special >= to) {
                return to;
            }
            if (json[special] == '"') {
                return special;
            }
            // An escape: the byte after it is never the string's end.
            i = special + 2;
        }
        return to;
    }

    private static int nextQuoteOrEscape(byte[] json, int from, int to) {
        int i = from;
        for (; i + Long.BYTES <= to; i += Long.BYTES) {
            long word = (long) LONGS.get(json, i);
            long found = equalBytes(word, QUOTES) | equalBytes(word, BACKSLASHES);
            if (found != 0) {
                return i + (Long.numberOfTrailingZeros(found) >>> 3);
            }
        }
        for (; i < to; i++) {
            if (json[i] == '"' || json[i] == '\\') {
                return i;
            }
        }
        return i;
    }

    /**
     * The high bit of each byte of {@code word} that equals the byte repeated in {@code pattern}, and
     * no other bit: exact, where the shorter subtract-and-mask test also marks bytes above a match.
     */
    private static long equalBytes(long word, long pattern) {
        long x = word ^ pattern;
        return ~(((x & LOW_SEVEN_BITS) + LOW_SEVEN_BITS) | x | LOW_SEVEN_BITS);
    }

    private static int skipWhitespace(byte[] json, int from, int to) {
        int i = from;
        while (i < to && isWhitespace(json[i])) {
            i++;
        }
        return i;
    }

    private static boolean isWhitespace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }

    private static boolean isTextMember(byte[] json, int from, int end) {
        outer:
        for (byte[] member : TEXT_MEMBERS) {
            if (member.length != end - from) {
                continue;
            }
            for (int j = 0; j < member.length; j++) {
                if (json[from + j] != member[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /**
     * The same count as {@link #textBytes} over a body that arrives in parts, split anywhere, even
     * inside a string: for a plain answer relayed as it arrives, none of it kept. Not thread-safe.
     */
    public static final class Tally {
        /** The longest text member's name: a string longer than this is no member. */
        private static final int LONGEST_MEMBER = 17;
        private final byte[] name = new byte[LONGEST_MEMBER];
        private long text;
        private boolean inString;
        private boolean escaped;
        /** The string being read is the value of a text member: its bytes count. */
        private boolean counting;
        /** The string being read may be a member's name: its bytes so far, up to {@link #LONGEST_MEMBER}. */
        private int nameLength;
        /** A text member's name was read: a colon next makes the next string count. */
        private boolean memberRead;
        /** A text member's name and its colon were read: the next string counts. */
        private boolean valueCounts;

        /** Counts {@code bytes[from, to)}, the next part of the body. */
        public void add(byte[] bytes, int from, int to) {
            for (int i = from; i < to; i++) {
                byte b = bytes[i];
                if (inString) {
                    if (escaped) {
                        escaped = false;
                    } else if (b == '\\') {
                        escaped = true;
                    } else if (b == '"') {
                        inString = false;
                        memberRead = !counting && isTextMember(name, 0, nameLength);
                        continue;
                    }
                    if (counting) {
                        text++;
                    } else if (nameLength <= LONGEST_MEMBER) {
                        if (nameLength < LONGEST_MEMBER) {
                            name[nameLength] = b;
                        }
                        nameLength++;
                    }
                    continue;
                }
                if (b == '"') {
                    inString = true;
                    counting = valueCounts;
                    valueCounts = false;
                    memberRead = false;
                    nameLength = 0;
                } else if (b == ':') {
                    valueCounts = memberRead;
                    memberRead = false;
                } else if (!isWhitespace(b)) {
                    valueCounts = false;
                    memberRead = false;
                }
            }
        }

        /** The bytes of text counted so far. */
        public long textBytes() {
            return text;
        }
    }

    private static byte[][] members(String... names) {
        byte[][] bytes = new byte[names.length][];
        for (int i = 0; i < names.length; i++) {
            bytes[i] = names[i].getBytes(StandardCharsets.US_ASCII);
        }
        return bytes;
    }
}
