package io.aigw.runtime.metering;

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

    private TextEstimate() {
    }

    /** Tokens for this many bytes of text: rounded up, so that any text is at least one token. */
    public static long tokens(long textBytes) {
        return (textBytes + BYTES_PER_TOKEN - 1) / BYTES_PER_TOKEN;
    }

    /**
     * The bytes of text in {@code json[from, to)}: the lengths, as written, of the string values of
     * the text members, at any depth. JSON that is cut short counts up to where it ends. A scan of
     * its own, not a {@link Tally}: reading string by string is the faster on a stream's whole
     * events, for each of which the relay calls it (SseRelayBenchmark).
     */
    public static long textBytes(byte[] json, int from, int to) {
        long text = 0;
        int i = from;
        boolean valueCounts = false;
        while (i < to) {
            if (json[i] != '"') {
                if (json[i] != ':' && json[i] != ' ' && json[i] != '\t' && json[i] != '\n' && json[i] != '\r') {
                    valueCounts = false;
                }
                i++;
                continue;
            }
            int end = stringEnd(json, i + 1, to);
            if (valueCounts) {
                text += end - i - 1;
                valueCounts = false;
            } else {
                valueCounts = isTextMember(json, i + 1, end) && followedByColon(json, end + 1, to);
            }
            i = end + 1;
        }
        return text;
    }

    /** The index of the quote that ends the string starting at {@code from}, or {@code to}. */
    private static int stringEnd(byte[] json, int from, int to) {
        for (int i = from; i < to; i++) {
            if (json[i] == '\\') {
                i++;
            } else if (json[i] == '"') {
                return i;
            }
        }
        return to;
    }

    private static boolean followedByColon(byte[] json, int from, int to) {
        int i = from;
        while (i < to && (json[i] == ' ' || json[i] == '\t' || json[i] == '\n' || json[i] == '\r')) {
            i++;
        }
        return i < to && json[i] == ':';
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
                } else if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
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
