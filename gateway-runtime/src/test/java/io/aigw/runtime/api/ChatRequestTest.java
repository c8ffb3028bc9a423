package io.aigw.runtime.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.error.ApiException;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The splice that changes {@code model} and drops fields must leave every other byte of the
 * caller's body as it was: these compare whole bodies, byte for byte.
 */
public final class ChatRequestTest {
    private static final String MESSAGES = "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]";

    @Test
    void modelIsReplacedAndEverythingElseKeepsItsBytes() {
        String body = "{\n  \"temperature\" : 1.50,\n\t\"n\":1e2, \"seed\": -0,\r\n"
                + "  \"model\"  :  \"openai/gpt-5\" ,\n"
                + "  \"stop\": [\",\", \"}\", \"\\\"\"],  \"max_tokens\":1E+2,\"top_p\":0.10,\n"
                + "  " + MESSAGES + ", \"user\":\"caf\\u00e9\", \"logit_bias\":{\"50256\":-100.0}\n}\n";

        byte[] out = ChatRequest.parse(utf8(body)).forUpstream("gpt-5", Set.of());

        assertEquals(body.replace("\"openai/gpt-5\"", "\"gpt-5\""), text(out));
    }

    @Test
    void numbersKeepTheirExactSpelling() {
        String numbers = "\"a\":1.50,\"b\":1e2,\"c\":-0,\"d\":1E-7,\"e\":100000000000000000000000000001,"
                + "\"f\":0.30000000000000004,\"g\":-0.0,\"h\":2.5e+10";
        String body = "{\"model\":\"openai/gpt-5\"," + numbers + "," + MESSAGES + "}";

        String out = text(ChatRequest.parse(utf8(body)).forUpstream("gpt-5", Set.of()));

        assertEquals("{\"model\":\"gpt-5\"," + numbers + "," + MESSAGES + "}", out);
    }

    @Test
    void numbersRightBeforeAndAfterModelKeepTheirLastDigit() {
        String body = "{\"seed\":-0," + "\"model\":\"openai/gpt-5\",\"n\":1e2," + MESSAGES + ",\"top_p\":1.50}";

        String out = text(ChatRequest.parse(utf8(body)).forUpstream("gpt-5", Set.of("top_p")));

        assertEquals("{\"seed\":-0,\"model\":\"gpt-5\",\"n\":1e2," + MESSAGES + "}", out);
    }

    @Test
    void unicodeEscapesStayEscaped() {
        String body = "{\"user\":\"caf\\u00e9 \\ud83d\\ude00\",\"model\":\"openai/gpt-5\","
                + "\"messages\":[{\"role\":\"user\",\"content\":\"\\u00e9\\n\\t\\\"\\/\"}]}";

        String out = text(ChatRequest.parse(utf8(body)).forUpstream("gpt-5", Set.of()));

        assertEquals(body.replace("openai/gpt-5", "gpt-5"), out);
    }

    static Stream<Arguments> textAroundTheModel() {
        return Stream.of(
                // Two-, three- and four-byte characters shift byte offsets away from character offsets:
                // a splice computed in characters would cut through them.
                Arguments.argumentSet("raw non-ASCII and emoji",
                        "\"user\":\"héllo wörld 日本語 😀😀\",\"métadonnées\":{\"clé\":\"🎉\"},",
                        ",\"messages\":[{\"role\":\"user\",\"content\":\"Ça va? 👍🏽 ありがとう 𝄞\"}],\"stop\":[\"€\"]"),
                // U+FFFD is what lenient decoding puts in place of bad bytes; sent as itself, it is
                // valid UTF-8, text and not an encoding error.
                Arguments.argumentSet("a caller's own replacement character",
                        "\"user\":\"\uFFFD\",",
                        ",\"messages\":[{\"role\":\"user\",\"content\":\"a \uFFFD and ü\"}]"));
    }

    @ParameterizedTest
    @MethodSource("textAroundTheModel")
    void theTextOnBothSidesOfModelKeepsItsBytes(String before, String after) {
        String body = "{" + before + "\"model\":\"openai/gpt-5\"" + after + "}";

        byte[] out = ChatRequest.parse(utf8(body)).forUpstream("gpt-5", Set.of());

        assertArrayEquals(utf8("{" + before + "\"model\":\"gpt-5\"" + after + "}"), out);
    }

    @Test
    void aReplacementCharacterBesideBytesThatAreNotUtf8IsStillRefused() {
        byte[] body = utf8("{\"model\":\"openai/gpt-5\",\"user\":\"\uFFFD?\"," + MESSAGES + "}");
        // In Latin-1 each byte is one character, so this finds the byte's index: a lead byte, then a quote.
        body[new String(body, StandardCharsets.ISO_8859_1).indexOf('?')] = (byte) 0xC3;

        assertThrows(ApiException.class, () -> ChatRequest.parse(body));
    }

    @Test
    void nonAsciiInTheModelItselfIsReplacedWhole() {
        String body = "{\"user\":\"😀\",\"model\":\"openai/gpt-😀-é\"," + MESSAGES + ",\"x\":\"日本\"}";
        ChatRequest request = ChatRequest.parse(utf8(body));

        assertEquals("openai/gpt-😀-é", request.model());
        assertEquals("{\"user\":\"😀\",\"model\":\"gpt-😀-é\"," + MESSAGES + ",\"x\":\"日本\"}",
                text(request.forUpstream("gpt-😀-é", Set.of())));
    }

    @Test
    void escapedQuotesInTheModelAreReplacedWhole() {
        String body = "{\"model\":\"openai/gpt-\\\"5\\\"\\\\\"," + MESSAGES + "}";
        ChatRequest request = ChatRequest.parse(utf8(body));

        assertEquals("openai/gpt-\"5\"\\", request.model());
        assertEquals("{\"model\":\"gpt-5\"," + MESSAGES + "}", text(request.forUpstream("gpt-5", Set.of())));
    }

    @Test
    void aModelSpelledWithEscapesIsLeftAsWrittenWhenItDoesNotChange() {
        // The catch-all forwards ids unchanged: "\u002F" stays as the caller wrote it.
        byte[] body = utf8("{\"model\":\"meta\\u002Fllama\\/3\"," + MESSAGES + "}");
        ChatRequest request = ChatRequest.parse(body);

        assertEquals("meta/llama/3", request.model());
        assertSame(body, request.forUpstream("meta/llama/3", Set.of()));
    }

    static Stream<Arguments> modelPositions() {
        return Stream.of(
                Arguments.argumentSet("first", "{\"model\":\"openai/gpt-5\"," + MESSAGES + ",\"n\":1}"),
                Arguments.argumentSet("middle", "{" + MESSAGES + ",\"model\":\"openai/gpt-5\",\"n\":1}"),
                Arguments.argumentSet("last", "{" + MESSAGES + ",\"n\":1,\"model\":\"openai/gpt-5\"}"),
                Arguments.argumentSet("last with white space", "{ " + MESSAGES + " , \"model\" : \"openai/gpt-5\" }"),
                Arguments.argumentSet("first with white space",
                        "{ \"model\" :\n\"openai/gpt-5\"\n, " + MESSAGES + "}"));
    }

    @ParameterizedTest
    @MethodSource("modelPositions")
    void modelIsReplacedWhereverItStands(String body) {
        String out = text(ChatRequest.parse(utf8(body)).forUpstream("gpt-5", Set.of()));

        assertEquals(body.replace("\"openai/gpt-5\"", "\"gpt-5\""), out);
    }

    static Stream<Arguments> drops() {
        String m = "\"model\":\"openai/gpt-5\"";
        String msgs = MESSAGES;
        return Stream.of(
                Arguments.argumentSet("first",
                        "{\"store\":true," + m + "," + msgs + "}", Set.of("store"),
                        "{\"model\":\"gpt-5\"," + msgs + "}"),
                Arguments.argumentSet("first with white space",
                        "{ \"store\" : true ,\n  " + m + ",\n  " + msgs + "\n}", Set.of("store"),
                        "{ \"model\":\"gpt-5\",\n  " + msgs + "\n}"),
                Arguments.argumentSet("middle",
                        "{" + m + ",\"store\":{\"a\":[1,{\"b\":\"},\"}]}," + msgs + "}", Set.of("store"),
                        "{\"model\":\"gpt-5\"," + msgs + "}"),
                Arguments.argumentSet("last",
                        "{" + m + "," + msgs + ",\"store\":[1,2]}", Set.of("store"),
                        "{\"model\":\"gpt-5\"," + msgs + "}"),
                Arguments.argumentSet("last with white space",
                        "{" + m + ", " + msgs + " , \"store\" : \"x\" \n}", Set.of("store"),
                        "{\"model\":\"gpt-5\", " + msgs + " \n}"),
                Arguments.argumentSet("several apart",
                        "{\"a\":1," + m + ",\"b\":2," + msgs + ",\"c\":3,\"d\":4}", Set.of("a", "b", "c"),
                        "{\"model\":\"gpt-5\"," + msgs + ",\"d\":4}"),
                Arguments.argumentSet("adjacent at the start",
                        "{\"a\":1,\"b\":\"x\",\"c\":null," + m + "," + msgs + "}", Set.of("a", "b", "c"),
                        "{\"model\":\"gpt-5\"," + msgs + "}"),
                Arguments.argumentSet("adjacent in the middle",
                        "{" + m + ",\"a\":1,\"b\":[],\"c\":{}," + msgs + "}", Set.of("a", "b", "c"),
                        "{\"model\":\"gpt-5\"," + msgs + "}"),
                Arguments.argumentSet("adjacent at the end",
                        "{" + m + "," + msgs + ",\"a\":1,\"b\":2}", Set.of("a", "b"),
                        "{\"model\":\"gpt-5\"," + msgs + "}"),
                Arguments.argumentSet("every field but model and messages",
                        "{\"a\":1," + m + ",\"b\":2," + msgs + ",\"c\":3}", Set.of("a", "b", "c"),
                        "{\"model\":\"gpt-5\"," + msgs + "}"),
                Arguments.argumentSet("one with non-ASCII around it",
                        "{\"u\":\"é😀\",\"store\":\"日本\"," + m + "," + msgs + ",\"v\":\"👍\"}", Set.of("store"),
                        "{\"u\":\"é😀\",\"model\":\"gpt-5\"," + msgs + ",\"v\":\"👍\"}"),
                Arguments.argumentSet("one not present among present ones",
                        "{" + m + ",\"a\":1," + msgs + "}", Set.of("a", "absent"),
                        "{\"model\":\"gpt-5\"," + msgs + "}"),
                Arguments.argumentSet("one whose key is escaped",
                        "{" + m + ",\"st\\u006fre\":1," + msgs + "}", Set.of("store"),
                        "{\"model\":\"gpt-5\"," + msgs + "}"));
    }

    @ParameterizedTest
    @MethodSource("drops")
    void droppedFieldsLeaveValidJsonWithTheRestIntact(String body, Set<String> dropped, String expected) {
        String out = text(ChatRequest.parse(utf8(body)).forUpstream("gpt-5", dropped));

        assertEquals(expected, out);
        JsonObject parsed = parse(out);
        assertEquals("gpt-5", parsed.getString("model"));
        dropped.forEach(name -> assertFalse(parsed.containsKey(name), name));
    }

    @Test
    void fieldsAreDroppedEvenWhenTheModelStaysTheSame() {
        String body = "{\"model\":\"meta/llama-3\",\"store\":true," + MESSAGES + "}";

        String out = text(ChatRequest.parse(utf8(body)).forUpstream("meta/llama-3", Set.of("store")));

        assertEquals("{\"model\":\"meta/llama-3\"," + MESSAGES + "}", out);
    }

    @Test
    void theSameArrayIsReturnedWhenNothingChanges() {
        byte[] body = utf8("{\"model\":\"meta/llama-3\",\"store\":true," + MESSAGES + "}");
        ChatRequest request = ChatRequest.parse(body);

        assertSame(body, request.body());
        assertSame(body, request.forUpstream("meta/llama-3", Set.of()));
        assertSame(body, request.forUpstream("meta/llama-3", Set.of("logprobs", "absent")));
        assertNotSame(body, request.forUpstream("llama-3", Set.of()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"gpt-\"5\"", "back\\slash", "new\nline", "tab\there", "bell\u0007", "nul\u0000",
        "del\u007f", "é😀", "\u2028separator\u2029", "</script>", "slash/in/model"})
    void newModelsThatNeedEscapingComeOutEscaped(String upstreamModel) {
        String body = "{\"model\":\"openai/x\"," + MESSAGES + ",\"n\":1}";

        String out = text(ChatRequest.parse(utf8(body)).forUpstream(upstreamModel, Set.of()));

        JsonObject parsed = parse(out);
        assertEquals(upstreamModel, parsed.getString("model"));
        assertTrue(out.startsWith("{\"model\":\"") && out.endsWith("\"," + MESSAGES + ",\"n\":1}"), out);
        assertFalse(out.chars().anyMatch(c -> c < 0x20), "raw control character in " + out);
    }

    @Test
    void aNewModelWithALoneSurrogateComesOutEscapedNotMangled() {
        // Encoded to UTF-8 as it stands, a lone surrogate would reach the upstream as "?".
        String body = "{\"model\":\"openai/x\"," + MESSAGES + "}";

        String out = text(ChatRequest.parse(utf8(body)).forUpstream("gpt-\ud800", Set.of()));

        assertEquals("{\"model\":\"gpt-\\ud800\"," + MESSAGES + "}", out);
        assertEquals("gpt-\ud800", parse(out).getString("model"));
    }

    @Test
    void aModelWithALoneSurrogateIsRefusedAsNoIdentifier() {
        // UTF-8 cannot encode it: a usage record, a report or a log line could not show the id asked for.
        byte[] body = utf8("{\"model\":\"meta/llama-\\udc00\"," + MESSAGES + "}");

        ApiException refused = assertThrows(ApiException.class, () -> ChatRequest.parse(body));

        assertEquals("model", refused.error().param());
    }

    @Test
    void quotesAndBackslashesInANewModelAreEscapedExactly() {
        String body = "{\"model\":\"openai/x\"," + MESSAGES + "}";

        String out = text(ChatRequest.parse(utf8(body)).forUpstream("a\"b\\c\nd", Set.of()));

        assertEquals("{\"model\":\"a\\\"b\\\\c\\nd\"," + MESSAGES + "}", out);
    }

    @Test
    void usageOptionsAddedInFrontLeaveTheRestWithItsBytes() {
        String body = "{\"store\":true,\"model\":\"openai/gpt-5\",\"user\":\"é😀\",\"stream\":true," + MESSAGES + "}";

        String out = text(ChatRequest.parse(utf8(body)).forUpstream("gpt-5", Set.of("store"), true));

        assertEquals("{\"stream_options\":{\"include_usage\":true},\"model\":\"gpt-5\",\"user\":\"é😀\","
                + "\"stream\":true," + MESSAGES + "}", out);
    }

    @Test
    void usageSetInTheCallersOwnOptionsLeavesTheRestWithItsBytes() {
        String before = "{\"model\":\"openai/gpt-5\", \"stream\" : true,\n\"stream_options\": ";
        String after = ",\n\"user\":\"日本\",\"n\":1e2," + MESSAGES + "}";
        String body = before + "{\"include_obfuscation\":false}" + after;

        String out = text(ChatRequest.parse(utf8(body)).forUpstream("gpt-5", Set.of(), true));

        assertEquals(before.replace("openai/gpt-5", "gpt-5")
                + "{\"include_usage\":true,\"include_obfuscation\":false}" + after, out);
    }

    @Test
    void streamIsReadAsABoolean() {
        assertTrue(ChatRequest.parse(utf8("{\"model\":\"m\",\"stream\":true," + MESSAGES + "}")).stream());
        assertFalse(ChatRequest.parse(utf8("{\"model\":\"m\",\"stream\":false," + MESSAGES + "}")).stream());
        assertFalse(ChatRequest.parse(utf8("{\"model\":\"m\",\"stream\":null," + MESSAGES + "}")).stream());
        assertFalse(ChatRequest.parse(utf8("{\"model\":\"m\"," + MESSAGES + "}")).stream());
    }

    @Test
    void nestingUpToTheLimitIsAcceptedAndOneLevelMoreIsNot() {
        // The top-level object is level 1, so a field can hold MAX_DEPTH - 1 levels.
        int allowed = RequestObject.MAX_DEPTH - 1;
        String ok = "{\"model\":\"m\"," + MESSAGES + ",\"deep\":" + "[".repeat(allowed) + "]".repeat(allowed) + "}";
        String tooDeep = "{\"model\":\"m\"," + MESSAGES + ",\"deep\":"
                + "[".repeat(allowed + 1) + "]".repeat(allowed + 1) + "}";

        assertEquals("m", ChatRequest.parse(utf8(ok)).model());
        ApiException e = assertThrows(ApiException.class, () -> ChatRequest.parse(utf8(tooDeep)));
        assertEquals(400, e.error().status().code());
    }

    @Test
    void aDocumentTooDeepForTheParserIsRefusedWithoutOverflowingTheStack() {
        String body = "{\"model\":\"m\"," + MESSAGES + ",\"deep\":" + "[".repeat(100_000) + "]".repeat(100_000) + "}";

        ApiException e = assertThrows(ApiException.class, () -> ChatRequest.parse(utf8(body)));
        assertEquals(400, e.error().status().code());
    }

    @Test
    void aByteOrderMarkIsRefusedByName() {
        ApiException e = assertThrows(ApiException.class,
                () -> ChatRequest.parse(utf8("\uFEFF{\"model\":\"m\"," + MESSAGES + "}")));

        assertEquals(400, e.error().status().code());
        assertTrue(e.error().message().contains("byte order mark"), e.error().message());
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static JsonObject parse(String json) {
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }
}
