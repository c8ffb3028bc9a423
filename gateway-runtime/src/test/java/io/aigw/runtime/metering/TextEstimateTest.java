package io.aigw.runtime.metering;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The text a cost is estimated by: {@link TextEstimate.Tally} counts a body that arrives in parts
 * as {@link TextEstimate#textBytes} counts it whole, wherever the parts split it; and the two,
 * written apart (a byte at a time, eight bytes at a time), count the same.
 */
final class TextEstimateTest {
    private static final String[] NAMES = {"content", "text", "reasoning_content", "reasoning", "refusal",
            "arguments", "contents", "id", "role", "reasoning_contentX", "tex", "a\\\"b"};
    private static final String[] STRINGS = {"", "Hi", "tok1 ", "a\\\"quoted\\\" one", "ends in \\\\",
            "\\u00e9t\\u00e9", "long enough to span more than one word of eight bytes", "\\\\\\\\\\\"", "content",
            "\\\"content\\\":\\\"not a member\\\"", "été, 日本語"};
    private static final String[] SPACES = {"", " ", "\n  ", "\t"};

    @ParameterizedTest
    @ValueSource(strings = {
            "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":\"Hello, w\\\"orld\\\\\"}}]}",
            "{\"content\" : \"spaced\", \"text\":\"t\", \"reasoning_content\":\"r\", \"refusal\":null,"
                    + " \"arguments\":\"{\\\"a\\\":1}\", \"contents\":\"not counted\", \"id\":\"content\"}",
            "{\"content\" \"no colon\", \"x\":\"content\", \"content\":\"cut mid-str",
            "{\"reasoning_contentX\":\"not a member\", \"tool\":{\"text\":\"nested\"}}"})
    void aTallyOfTwoPartsSplitAnywhereCountsWhatTheWholeCounts(String json) {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        long whole = TextEstimate.textBytes(bytes, 0, bytes.length);
        for (int split = 0; split <= bytes.length; split++) {
            TextEstimate.Tally tally = new TextEstimate.Tally();
            tally.add(bytes, 0, split);
            tally.add(bytes, split, bytes.length);
            assertEquals(whole, tally.textBytes(), "split at " + split);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3})
    void aTallyCountsTheStringValuesOfTextMembersAsWritten(int partSize) {
        byte[] bytes = ("{\"content\":\"Hi \\\"you\\\"\",\"role\":\"user\",\"text\":\"abc\"}")
                .getBytes(StandardCharsets.UTF_8);
        TextEstimate.Tally tally = new TextEstimate.Tally();
        for (int from = 0; from < bytes.length; from += partSize) {
            tally.add(bytes, from, Math.min(bytes.length, from + partSize));
        }
        // Hi \"you\" is 10 bytes as written, abc 3.
        assertEquals(13, tally.textBytes());
    }

    @Test
    void theWholeCountAndTheTallyAgreeOnJsonCutAnywhereAndReadFromAnywhere() {
        Random random = new Random(50);
        for (int n = 0; n < 300; n++) {
            StringBuilder json = new StringBuilder();
            value(random, json, 0);
            // What lies past the range counted looks like text that would count, were it read.
            byte[] bytes = (json + "{\"content\":\"past the end\"}").getBytes(StandardCharsets.UTF_8);
            int length = json.toString().getBytes(StandardCharsets.UTF_8).length;
            for (int to = 0; to <= length; to++) {
                TextEstimate.Tally tally = new TextEstimate.Tally();
                tally.add(bytes, 0, to);
                assertEquals(tally.textBytes(), TextEstimate.textBytes(bytes, 0, to), json + " cut at " + to);
            }
            byte[] shifted = new byte[bytes.length + 7];
            System.arraycopy(bytes, 0, shifted, 7, bytes.length);
            Arrays.fill(shifted, 0, 7, (byte) '"');
            assertEquals(TextEstimate.textBytes(bytes, 0, length), TextEstimate.textBytes(shifted, 7, length + 7),
                    json.toString());
        }
    }

    /** A random JSON value: objects and arrays nested a few deep, the text members' names and others. */
    private static void value(Random random, StringBuilder json, int depth) {
        int kind = depth > 3 ? 2 + random.nextInt(3) : random.nextInt(5);
        switch (kind) {
            case 0 -> {
                json.append('{');
                int members = random.nextInt(5);
                for (int m = 0; m < members; m++) {
                    json.append(m > 0 ? "," : "").append(pick(random, SPACES)).append('"')
                            .append(pick(random, NAMES)).append('"').append(pick(random, SPACES)).append(':')
                            .append(pick(random, SPACES));
                    value(random, json, depth + 1);
                }
                json.append('}');
            }
            case 1 -> {
                json.append('[');
                int items = random.nextInt(4);
                for (int m = 0; m < items; m++) {
                    json.append(m > 0 ? "," : "").append(pick(random, SPACES));
                    value(random, json, depth + 1);
                }
                json.append(']');
            }
            case 2, 3 -> json.append('"').append(pick(random, random.nextBoolean() ? STRINGS : NAMES)).append('"');
            default -> json.append(random.nextBoolean() ? "null" : Integer.toString(random.nextInt(100_000)));
        }
    }

    private static String pick(Random random, String[] choices) {
        return choices[random.nextInt(choices.length)];
    }
}
