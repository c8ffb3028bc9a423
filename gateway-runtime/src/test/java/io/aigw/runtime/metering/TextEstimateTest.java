package io.aigw.runtime.metering;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The text a cost is estimated by: {@link TextEstimate.Tally} counts a body that arrives in parts
 * as {@link TextEstimate#textBytes} counts it whole, wherever the parts split it.
 */
final class TextEstimateTest {

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
}
