package io.aigw.runtime.metering;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.aigw.runtime.error.Jsons;
import io.aigw.runtime.pricing.Usd;
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

        assertReadByHand(answer, new TokenUsage(12, 3, 15));
    }

    @Test
    void nestedDetailsStringsAndLiteralsAreSkipped() {
        String answer = "{\"usage\": {\n  \"prompt_tokens\" : 1200,\n"
                + "  \"prompt_tokens_details\": {\"cached_tokens\": 1024, \"audio_tokens\": [0, {\"x\": \"}]\"}]},\n"
                + "  \"note\": \"a \\\"quoted\\\" } brace\", \"flag\": true, \"none\": null, \"ratio\": -1.5e3,\n"
                + "  \"completion_tokens\": 0, \"off\": false, \"total_tokens\": 1200\n}}";

        assertReadByHand(answer, new TokenUsage(1200, 0, 1200, 1024, -1, -1, Optional.empty()));
    }

    @Test
    void theDetailsACostDependsOnAreRead() {
        // As OpenAI sends it (platform.openai.com/docs/api-reference/chat/object).
        String answer = "{\"usage\":{\"prompt_tokens\":2006,\"completion_tokens\":1300,\"total_tokens\":3306,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":1920,\"audio_tokens\":0},"
                + "\"completion_tokens_details\":{\"reasoning_tokens\":1024,\"audio_tokens\":0,"
                + "\"accepted_prediction_tokens\":0,\"rejected_prediction_tokens\":0}}}";

        assertReadByHand(answer, new TokenUsage(2006, 1300, 3306, 1920, -1, 1024, Optional.empty()));
    }

    @Test
    void openRoutersCostIsReadExactlyFromItsTextBesideItsCacheWrites() {
        // As OpenRouter sends it (openrouter.ai/docs/use-cases/usage-accounting).
        String answer = "{\"usage\":{\"completion_tokens\":2,\"completion_tokens_details\":{\"reasoning_tokens\":0},"
                + "\"cost\":0.0001417505,\"cost_details\":{\"upstream_inference_cost\":19},"
                + "\"prompt_tokens\":194,\"prompt_tokens_details\":{\"cached_tokens\":0,\"cache_write_tokens\":100,"
                + "\"audio_tokens\":0},\"total_tokens\":196}}";

        // 141750.5 nano-dollars, half to even: 141750. Through a double, 0.0001417505 is
        // 0.00014175050000000001..., which rounds to 141751.
        assertReadByHand(answer, new TokenUsage(194, 2, 196, 0, 100, 0, Optional.of(new Usd(141_750))));
    }

    @Test
    void xaisTicksAreTheReportedCostAndWinOverACostInDollars() {
        // 10^10 ticks to the dollar (docs.x.ai/developers/cost-tracking).
        assertFromBytes("{\"usage\":{\"prompt_tokens\":663,\"cost_in_usd_ticks\":37756000}}",
                new TokenUsage(663, -1, -1, -1, -1, -1, Optional.of(new Usd(3_775_600))));
        assertFromBytes("{\"usage\":{\"cost\":1.5,\"cost_in_usd_ticks\":15}}",
                new TokenUsage(-1, -1, -1, -1, -1, -1, Optional.of(new Usd(2))));
    }

    @Test
    void aCostThatIsNotAnAmountIsNoCost() {
        for (String cost : new String[] {"null", "\"0.5\"", "-0.5", "1e30", "{\"usd\":1}", "[0.5]"}) {
            String answer = "{\"usage\":{\"prompt_tokens\":1,\"cost\":" + cost + ",\"completion_tokens\":2}}";
            assertFromBytes(answer, new TokenUsage(1, 2, -1));
        }
        assertFromBytes("{\"usage\":{\"cost\":1e-999999999}}", new TokenUsage(-1, -1, -1, -1, -1, -1,
                Optional.of(Usd.ZERO)));
        assertFromBytes("{\"usage\":{\"cost_in_usd_ticks\":-5}}", new TokenUsage(-1, -1, -1));
    }

    @Test
    void detailsThatAreNullOrGivenTwiceCountAsTheLastOneSays() {
        assertFromBytes("{\"usage\":{\"prompt_tokens_details\":null,\"completion_tokens_details\":null}}",
                new TokenUsage(-1, -1, -1));
        assertFromBytes("{\"usage\":{\"prompt_tokens_details\":{\"cached_tokens\":5,\"cache_write_tokens\":6},"
                + "\"prompt_tokens_details\":{\"cached_tokens\":7},\"cost\":1,\"cost\":null}}",
                new TokenUsage(-1, -1, -1, 7, -1, -1, Optional.empty()));
        assertFromBytes("{\"usage\":{\"completion_tokens_details\":{\"reasoning_tokens\":3},"
                + "\"completion_tokens_details\":null}}", new TokenUsage(-1, -1, -1));
    }

    @Test
    void countThatIsNotANumberOrAbsentIsMinusOne() {
        String answer = "{\"usage\":{\"prompt_tokens\":null,\"completion_tokens\":\"7\"}}";

        assertReadByHand(answer, new TokenUsage(-1, -1, -1));
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
        String escapedDetail = "{\"usage\":{\"prompt_tokens_details\":{\"cached\\u005ftokens\":5}}}";
        String longCost = "{\"usage\":{\"cost\":0." + "0".repeat(100) + "1}}";

        assertNull(readWithoutParser(fraction));
        assertNull(readWithoutParser(escapedKey));
        assertNull(readWithoutParser(huge));
        assertNull(readWithoutParser(escapedDetail));
        assertNull(readWithoutParser(longCost));
        assertFromBytes(fraction, new TokenUsage(12, 100, 112));
        assertFromBytes(escapedKey, new TokenUsage(5, -1, 5));
        assertFromBytes(huge, new TokenUsage(-1, -1, 1234567890123456789L));
        assertFromBytes(escapedDetail, new TokenUsage(-1, -1, -1, 5, -1, -1, Optional.empty()));
        assertFromBytes(longCost, new TokenUsage(-1, -1, -1, -1, -1, -1, Optional.of(Usd.ZERO)));
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
                "{\"usage\":{\"note\":\"unterminated}}",
                "{\"usage\":{\"cost\":1.,\"prompt_tokens\":1}}",
                "{\"usage\":{\"cost\":-,\"prompt_tokens\":1}}",
                "{\"usage\":{\"cost\":01,\"prompt_tokens\":1}}",
                "{\"usage\":{\"prompt_tokens_details\":{\"cached_tokens\":1,}}}"}) {
            assertEquals(Optional.empty(), ReportedUsage.inAnswer(bytes(answer), 0, bytes(answer).length), answer);
        }
    }

    @Test
    void answersWithoutAUsageObjectGiveNoCounts() {
        for (String answer : new String[] {"{\"id\":\"c1\"}", "{\"usage\":null}", "{\"content\":\"\\\"usage\\\": {\"}"}) {
            assertEquals(Optional.empty(), ReportedUsage.inAnswer(bytes(answer), 0, bytes(answer).length), answer);
        }
    }

    /** Asserts that the usual shape is read without a parser, and read the same with one. */
    private static void assertReadByHand(String answer, TokenUsage expected) {
        assertEquals(expected, readWithoutParser(answer));
        assertFromBytes(answer, expected);
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
