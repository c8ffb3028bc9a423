package io.aigw.runtime.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.aigw.runtime.error.Jsons;
import io.aigw.runtime.observe.TokenUsage;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The counts a non-streamed answer's {@code usage} reports, read with and without a JSON parser. */
public final class ReportedUsageTest {

    @Test
    void usualUsageObjectIsReadWithoutAParser() {
        String answer = "{\"id\":\"c1\",\"choices\":[{\"message\":{\"content\":\"hi\"}}],"
                + "\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3,\"total_tokens\":15}}";

        assertEquals(new TokenUsage(12, 3, 15), readWithoutParser(answer));
        assertFromBytes(answer, new TokenUsage(12, 3, 15));
    }

    @Test
    void nestedDetailsStringsAndLiteralsAreSkipped() {
        String answer = "{\"usage\": {\n  \"prompt_tokens\" : 1200,\n"
                + "  \"prompt_tokens_details\": {\"cached_tokens\": 1024, \"audio_tokens\": [0, {\"x\": \"}]\"}]},\n"
                + "  \"note\": \"a \\\"quoted\\\" } brace\", \"flag\": true, \"none\": null, \"ratio\": -1.5e3,\n"
                + "  \"completion_tokens\": 0, \"off\": false, \"total_tokens\": 1200\n}}";

        assertEquals(new TokenUsage(1200, 0, 1200), readWithoutParser(answer));
        assertFromBytes(answer, new TokenUsage(1200, 0, 1200));
    }

    @Test
    void countThatIsNotANumberOrAbsentIsMinusOne() {
        String answer = "{\"usage\":{\"prompt_tokens\":null,\"completion_tokens\":\"7\"}}";

        assertEquals(new TokenUsage(-1, -1, -1), readWithoutParser(answer));
        assertFromBytes(answer, new TokenUsage(-1, -1, -1));
        assertFromBytes("{\"usage\":{}}", new TokenUsage(-1, -1, -1));
    }

    @Test
    void theLastOfDuplicateKeysCounts() {
        assertFromBytes("{\"usage\":{\"total_tokens\":1,\"total_tokens\":2}}", new TokenUsage(-1, -1, 2));
    }

    @Test
    void otherShapesAreLeftToTheParserAndReadTheSame() {
        String fraction = "{\"usage\":{\"prompt_tokens\":12.0,\"completion_tokens\":1e2,\"total_tokens\":112}}";
        String escapedKey = "{\"usage\":{\"prompt\\u005ftokens\":5,\"total_tokens\":5}}";
        String huge = "{\"usage\":{\"total_tokens\":1234567890123456789}}";

        assertNull(readWithoutParser(fraction));
        assertNull(readWithoutParser(escapedKey));
        assertNull(readWithoutParser(huge));
        assertFromBytes(fraction, new TokenUsage(12, 100, 112));
        assertFromBytes(escapedKey, new TokenUsage(5, -1, 5));
        assertFromBytes(huge, new TokenUsage(-1, -1, 1234567890123456789L));
    }

    @Test
    void malformedUsageGivesNoCounts() {
        for (String answer : new String[] {
                "{\"usage\":{\"prompt_tokens\":12,",
                "{\"usage\":{\"prompt_tokens\":012}}",
                "{\"usage\":{\"prompt_tokens\":+12}}",
                "{\"usage\":{\"ratio\":.5,\"prompt_tokens\":12}}",
                "{\"usage\":{\"prompt_tokens\" 12}}",
                "{\"usage\":{\"flag\":tru,\"prompt_tokens\":1}}",
                "{\"usage\":{\"prompt_tokens\":1 \"total_tokens\":2}}",
                "{\"usage\":{\"details\":{\"a\":1},\"prompt_tokens\":-}}",
                "{\"usage\":{\"note\":\"unterminated}}"}) {
            assertEquals(Optional.empty(), ReportedUsage.inAnswer(bytes(answer), 0, bytes(answer).length), answer);
        }
    }

    @Test
    void answersWithoutAUsageObjectGiveNoCounts() {
        for (String answer : new String[] {"{\"id\":\"c1\"}", "{\"usage\":null}", "{\"content\":\"\\\"usage\\\": {\"}"}) {
            assertEquals(Optional.empty(), ReportedUsage.inAnswer(bytes(answer), 0, bytes(answer).length), answer);
        }
    }

    /** Asserts the counts read from the bytes, and that a JSON parser reading the whole answer agrees. */
    private static void assertFromBytes(String answer, TokenUsage expected) {
        byte[] json = bytes(answer);
        assertEquals(Optional.of(expected), ReportedUsage.inAnswer(json, 0, json.length), answer);
        try (var parser = Jsons.PROVIDER.createParser(new StringReader(answer))) {
            parser.next();
            assertEquals(Optional.of(expected), ReportedUsage.inChunk(parser.getObject()), "parsed: " + answer);
        }
    }

    private static TokenUsage readWithoutParser(String answer) {
        byte[] json = bytes(answer);
        int object = answer.lastIndexOf("\"usage\"");
        object = answer.indexOf('{', object);
        return UsageObjectReader.read(json, object, json.length);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
