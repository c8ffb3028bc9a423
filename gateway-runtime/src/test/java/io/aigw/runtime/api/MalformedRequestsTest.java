package io.aigw.runtime.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.aigw.runtime.testing.CannedUpstream;
import io.aigw.runtime.testing.TestGateway;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.StringReader;
import java.net.Socket;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import mockwebserver3.MockWebServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed and hostile requests, sent over real HTTP to a gateway whose five providers all point
 * at one fake upstream with keys configured: each must get its 4xx, in the OpenAI error shape
 * wherever the gateway answers, and none may reach the upstream.
 */
public final class MalformedRequestsTest {
    /** Small enough that a 5000-byte body is over it. */
    private static final int MAX_BODY = 4096;
    private static final String PATH = "/api/v1/chat/completions";
    private static final String MESSAGES = "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]";
    private static final String VALID = "{\"model\":\"openai/gpt-5\"," + MESSAGES + "}";
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static MockWebServer upstream;
    private static TestGateway gateway;

    @BeforeAll
    static void start() throws IOException {
        // A request that gets through is answered at once, so a leak fails on its status, not by hanging.
        upstream = CannedUpstream.start(200, "{\"id\":\"leaked\",\"object\":\"chat.completion\",\"choices\":[]}");
        String base = upstream.url("/v1").toString();
        Map<String, String> config = new HashMap<>(Map.of("gateway.max-body-size", Integer.toString(MAX_BODY)));
        Map<String, String> env = new HashMap<>();
        for (String provider : new String[] {"openai", "gemini", "anthropic", "xai", "openrouter"}) {
            config.put("providers." + provider + ".base-url", base);
            env.put(provider.toUpperCase(Locale.ROOT) + "_API_KEY", "sk-test-" + provider);
        }
        gateway = TestGateway.start(config, env);
    }

    @AfterAll
    static void stop() {
        if (gateway != null) {
            gateway.close();
        }
        upstream.close();
    }

    /** The sanity check that the table would see a leak: a valid request does reach the upstream. */
    @Test
    void aValidRequestReachesTheUpstream() throws Exception {
        int before = upstream.getRequestCount();
        Reply reply = json(VALID).send();
        assertEquals(200, reply.status(), reply.text());
        assertEquals(before + 1, upstream.getRequestCount());
    }

    @Test
    void aCallerWaitingForContinueIsRefusedWithoutTheGatewayWaitingForItsBody() throws Exception {
        String oversized = "POST " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + TestGateway.KEY
                + "\r\nContent-Type: application/json\r\nExpect: 100-continue\r\nContent-Length: 5000\r\n\r\n";
        try (Socket socket = connect()) {
            write(socket, oversized.getBytes(StandardCharsets.ISO_8859_1));
            Reply refused = readResponse(socket.getInputStream());
            assertEquals(413, refused.status(), refused.text());
            assertEquals(Optional.of("close"), refused.header("Connection"));

            // The body never sent is not waited for: the connection ends, as its answer said.
            socket.shutdownOutput();
            assertEquals(-1, socket.getInputStream().read());
        }
    }

    @Test
    void aJsonSyntaxErrorIsPlacedWithinTheBody() throws Exception {
        Reply cut = json("{\"model\":\"").send();
        assertEquals(400, cut.status(), cut.text());
        assertTrue(cut.text().contains("it ends too early, after line 1, column 10."), cut.text());

        Reply wrong = json("{\"model\":\"openai/gpt-5\",\n  \"messages\": [}").send();
        assertEquals(400, wrong.status(), wrong.text());
        assertTrue(wrong.text().contains("unexpected '}' at line 2, column 16."), wrong.text());
    }

    @Test
    void aBodyWhoseEndCannotBeToldClosesTheConnection() throws Exception {
        Reply reply = raw(head("POST", PATH, "Content-Type: application/json", "Content-Length: " + VALID.length(),
                "Content-Length: 5").replace("Connection: close\r\n", ""), VALID).send();

        assertEquals(400, reply.status(), reply.text());
        assertEquals(Optional.of("close"), reply.header("Connection"));
    }

    static Stream<Row> requests() {
        String deepArrays = "[".repeat(300) + "]".repeat(300);
        String deepObjects = "{\"a\":".repeat(300) + "1" + "}".repeat(300);
        return Stream.of(
                // Broken JSON.
                row("truncated inside messages", json("{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\""),
                        invalid(null)),
                row("truncated inside a string", json("{\"model\":\"openai/gp"), invalid(null)),
                row("only an opening brace", json("{"), invalid(null)),
                row("only a closing brace", json("}"), invalid(null)),
                row("trailing comma in the object", json("{\"model\":\"openai/gpt-5\"," + MESSAGES + ",}"),
                        invalid(null)),
                row("trailing comma in an array", json("{\"model\":\"openai/gpt-5\",\"messages\":"
                        + "[{\"role\":\"user\",\"content\":\"Hi\"},]}"), invalid(null)),
                row("single quotes", json("{'model':'openai/gpt-5','messages':[]}"), invalid(null)),
                row("unquoted key", json("{model:\"openai/gpt-5\"," + MESSAGES + "}"), invalid(null)),
                row("missing colon", json("{\"model\" \"openai/gpt-5\"," + MESSAGES + "}"), invalid(null)),
                row("NaN", json("{\"model\":\"openai/gpt-5\"," + MESSAGES + ",\"temperature\":NaN}"), invalid(null)),
                row("-Infinity", json("{\"model\":\"openai/gpt-5\"," + MESSAGES + ",\"temperature\":-Infinity}"),
                        invalid(null)),
                row("hexadecimal number", json("{\"model\":\"openai/gpt-5\"," + MESSAGES + ",\"seed\":0x10}"),
                        invalid(null)),
                row("leading zero", json("{\"model\":\"openai/gpt-5\"," + MESSAGES + ",\"seed\":012}"), invalid(null)),
                row("line comment", json("{\"model\":\"openai/gpt-5\", // the model\n" + MESSAGES + "}"),
                        invalid(null)),
                row("block comment", json("{/* hi */\"model\":\"openai/gpt-5\"," + MESSAGES + "}"), invalid(null)),
                row("invalid escape", json("{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\","
                        + "\"content\":\"\\x41\"}]}"), invalid(null)),
                row("raw control character in a string", json("{\"model\":\"openai/gpt-5\",\"messages\":"
                        + "[{\"role\":\"user\",\"content\":\"a\u0001b\"}]}"), invalid(null)),
                row("garbage after the object", json(VALID + "xyz"), invalid(null)),
                row("a comma after the object", json(VALID + ","), invalid(null)),
                row("two objects", json(VALID + VALID), invalid(null)),
                row("two objects on two lines", json(VALID + "\n" + VALID + "\n"), invalid(null)),

                // Not an object at the top.
                row("an array", json("[" + VALID + "]"), invalid(null)),
                row("a string", json("\"openai/gpt-5\""), invalid(null)),
                row("a number", json("42"), invalid(null)),
                row("null", json("null"), invalid(null)),
                row("true", json("true"), invalid(null)),
                row("an empty body", json(""), invalid(null)),
                row("white space only", json(" \r\n\t "), invalid(null)),
                row("an empty object", json("{}"), invalid("model")),

                // model.
                row("model missing", json("{" + MESSAGES + "}"), invalid("model")),
                row("model null", json("{\"model\":null," + MESSAGES + "}"), invalid("model")),
                row("model a number", json("{\"model\":5," + MESSAGES + "}"), invalid("model")),
                row("model a boolean", json("{\"model\":true," + MESSAGES + "}"), invalid("model")),
                row("model an object", json("{\"model\":{\"id\":\"openai/gpt-5\"}," + MESSAGES + "}"),
                        invalid("model")),
                row("model an array", json("{\"model\":[\"openai/gpt-5\"]," + MESSAGES + "}"), invalid("model")),
                row("model empty", json("{\"model\":\"\"," + MESSAGES + "}"), invalid("model")),
                row("model blank", json("{\"model\":\" \\t \"," + MESSAGES + "}"), invalid("model")),
                row("model holding U+0000", json("{\"model\":\"openai/a\\u0000b\"," + MESSAGES + "}"),
                        invalid("model")),
                row("model holding DEL", json("{\"model\":\"openai/a\\u007fb\"," + MESSAGES + "}"), invalid("model")),
                row("model holding a C1 control", json("{\"model\":\"openai/a\\u009bb\"," + MESSAGES + "}"),
                        invalid("model")),
                row("model holding a bidi override", json("{\"model\":\"openai/a\\u202eb\"," + MESSAGES + "}"),
                        invalid("model")),
                row("model holding a lone surrogate", json("{\"model\":\"openai/a\\ud800\"," + MESSAGES + "}"),
                        invalid("model")),
                row("model under the gateway's own prefix other than auto",
                        json("{\"model\":\"gateway/other\"," + MESSAGES + "}"),
                        new Expected(404, "invalid_request_error", "model", "model_not_found")),
                row("model a provider prefix and nothing else", json("{\"model\":\"openai/\"," + MESSAGES + "}"),
                        invalid("model")),
                row("model a provider prefix and blanks", json("{\"model\":\"anthropic/  \"," + MESSAGES + "}"),
                        invalid("model")),

                // messages.
                row("messages missing", json("{\"model\":\"openai/gpt-5\"}"), invalid("messages")),
                row("messages null", json("{\"model\":\"openai/gpt-5\",\"messages\":null}"), invalid("messages")),
                row("messages an object", json("{\"model\":\"openai/gpt-5\",\"messages\":{\"role\":\"user\"}}"),
                        invalid("messages")),
                row("messages a string", json("{\"model\":\"openai/gpt-5\",\"messages\":\"Hi\"}"),
                        invalid("messages")),
                row("messages a number", json("{\"model\":\"openai/gpt-5\",\"messages\":1}"), invalid("messages")),
                row("messages an array of strings", json("{\"model\":\"openai/gpt-5\",\"messages\":[\"Hi\"]}"),
                        invalid("messages")),
                row("messages with a null", json("{\"model\":\"openai/gpt-5\",\"messages\":"
                        + "[{\"role\":\"user\",\"content\":\"Hi\"},null]}"), invalid("messages")),
                row("messages an array of arrays", json("{\"model\":\"openai/gpt-5\",\"messages\":"
                        + "[[{\"role\":\"user\",\"content\":\"Hi\"}]]}"), invalid("messages")),

                // stream.
                row("stream a string", json("{\"model\":\"openai/gpt-5\",\"stream\":\"true\"," + MESSAGES + "}"),
                        invalid("stream")),
                row("stream a number", json("{\"model\":\"openai/gpt-5\",\"stream\":1," + MESSAGES + "}"),
                        invalid("stream")),
                row("stream an object", json("{\"model\":\"openai/gpt-5\",\"stream\":{}," + MESSAGES + "}"),
                        invalid("stream")),

                row("stream_options a string", json("{\"model\":\"openai/gpt-5\",\"stream\":true,"
                        + "\"stream_options\":\"include_usage\"," + MESSAGES + "}"), invalid("stream_options")),
                row("stream_options an array", json("{\"model\":\"openai/gpt-5\",\"stream\":true,"
                        + "\"stream_options\":[{\"include_usage\":true}]," + MESSAGES + "}"),
                        invalid("stream_options")),

                // A key twice: which one would count is up to the parser, so neither does.
                row("model twice", json("{\"model\":\"openai/gpt-5\",\"model\":\"xai/grok-4\"," + MESSAGES + "}"),
                        invalid("model")),
                row("model twice, once escaped", json("{\"model\":\"openai/gpt-5\",\"mod\\u0065l\":\"xai/grok-4\","
                        + MESSAGES + "}"), invalid("model")),
                row("messages twice", json("{\"model\":\"openai/gpt-5\"," + MESSAGES + "," + MESSAGES + "}"),
                        invalid("messages")),
                row("stream twice", json("{\"model\":\"openai/gpt-5\",\"stream\":false," + MESSAGES
                        + ",\"stream\":true}"), invalid("stream")),
                row("another field twice", json("{\"model\":\"openai/gpt-5\",\"temperature\":1," + MESSAGES
                        + ",\"temperature\":2}"), invalid("temperature")),

                // Deep nesting.
                row("300 levels of arrays in a field", json("{\"model\":\"openai/gpt-5\"," + MESSAGES
                        + ",\"metadata\":" + deepArrays + "}"), invalid(null)),
                row("300 levels of objects in a field", json("{\"model\":\"openai/gpt-5\"," + MESSAGES
                        + ",\"metadata\":" + deepObjects + "}"), invalid(null)),
                row("300 levels inside a message", json("{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\","
                        + "\"content\":" + deepArrays + "}]}"), invalid(null)),
                row("300 levels before model", json("{\"metadata\":" + deepArrays + ",\"model\":\"openai/gpt-5\","
                        + MESSAGES + "}"), invalid(null)),
                row("4000 levels never closed", json("{\"model\":\"openai/gpt-5\",\"x\":" + "[".repeat(4000)),
                        invalid(null)),

                // Not UTF-8.
                row("a lone continuation byte", bytes(withBytes("{\"model\":\"openai/gpt-5\",\"user\":\"",
                        new byte[] {(byte) 0x80}, "\"," + MESSAGES + "}")), invalid(null)),
                row("an overlong two-byte slash", bytes(withBytes("{\"model\":\"openai",
                        new byte[] {(byte) 0xC0, (byte) 0xAF}, "gpt-5\"," + MESSAGES + "}")), invalid(null)),
                row("an overlong three-byte slash", bytes(withBytes("{\"model\":\"openai",
                        new byte[] {(byte) 0xE0, (byte) 0x80, (byte) 0xAF}, "gpt-5\"," + MESSAGES + "}")),
                        invalid(null)),
                row("a truncated three-byte sequence", bytes(withBytes("{\"model\":\"openai/gpt-5\",\"user\":\"",
                        new byte[] {(byte) 0xE2, (byte) 0x82}, "\"," + MESSAGES + "}")), invalid(null)),
                row("a truncated four-byte sequence at the very end", bytes(withBytes(VALID,
                        new byte[] {(byte) 0xF0, (byte) 0x9F, (byte) 0x98}, "")), invalid(null)),
                row("an encoded surrogate", bytes(withBytes("{\"model\":\"openai/gpt-5\",\"user\":\"",
                        new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, "\"," + MESSAGES + "}")), invalid(null)),
                row("a code point above U+10FFFF", bytes(withBytes("{\"model\":\"openai/gpt-5\",\"user\":\"",
                        new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, "\"," + MESSAGES + "}")),
                        invalid(null)),
                row("a 0xFF byte", bytes(withBytes("{\"model\":\"openai/gpt-5\",\"user\":\"",
                        new byte[] {(byte) 0xFF}, "\"," + MESSAGES + "}")), invalid(null)),
                row("UTF-16LE with a byte order mark", bytes(concat(new byte[] {(byte) 0xFF, (byte) 0xFE},
                        VALID.getBytes(StandardCharsets.UTF_16LE))), invalid(null)),
                row("UTF-16BE without a byte order mark", bytes(VALID.getBytes(StandardCharsets.UTF_16BE)),
                        invalid(null)),
                row("UTF-16 declared in the Content-Type", new Call(request(BodyPublishers.ofByteArray(
                        VALID.getBytes(StandardCharsets.UTF_16)), "application/json; charset=utf-16")), invalid(null)),
                row("a UTF-8 byte order mark", bytes(withBytes("", new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF},
                        VALID)), invalid(null)),

                // Too large.
                row("over the limit with Content-Length", bytes(padded(5000)), tooLarge()),
                row("one byte over the limit", bytes(padded(MAX_BODY + 1)), tooLarge()),
                row("over the limit, chunked", new Call(request(BodyPublishers.ofInputStream(
                        () -> new ByteArrayInputStream(padded(5000))), "application/json")), tooLarge()),
                row("over the limit with Expect: 100-continue", new Call(request(BodyPublishers.ofByteArray(
                        padded(5000)), "application/json").expectContinue(true)), tooLarge()),
                row("a Content-Length of a terabyte, no body sent", raw(head("POST", PATH,
                        "Content-Type: application/json", "Content-Length: 1000000000000"), new byte[0]), tooLarge()),

                // Not JSON.
                row("Content-Type text/plain", typed(VALID, "text/plain"), unsupportedType()),
                row("Content-Type form-urlencoded", typed("model=openai%2Fgpt-5&messages=x",
                        "application/x-www-form-urlencoded"), unsupportedType()),
                row("Content-Type multipart", typed("--b\r\nContent-Disposition: form-data; name=\"model\"\r\n\r\n"
                        + "openai/gpt-5\r\n--b--\r\n", "multipart/form-data; boundary=b"), unsupportedType()),
                row("Content-Type application/xml", typed("<model>openai/gpt-5</model>", "application/xml"),
                        unsupportedType()),
                row("Content-Type text/json", typed(VALID, "text/json"), unsupportedType()),
                row("Content-Type without a subtype", raw(head("POST", PATH, "Content-Type: json",
                        "Content-Length: " + VALID.length()), VALID.getBytes(StandardCharsets.UTF_8)),
                        unsupportedType()),
                row("Content-Type empty", raw(head("POST", PATH, "Content-Type: ",
                        "Content-Length: " + VALID.length()), VALID.getBytes(StandardCharsets.UTF_8)),
                        unsupportedType()),

                // Not this endpoint's method or path: Helidon answers these itself.
                row("GET", new Call(gateway().request(PATH).GET()), notFound()),
                row("PUT", new Call(gateway().request(PATH).header("Content-Type", "application/json")
                        .PUT(BodyPublishers.ofString(VALID))), notFound()),
                row("DELETE", new Call(gateway().request(PATH).DELETE()), notFound()),
                row("a misspelt path", new Call(gateway().request("/api/v1/chat/completion")
                        .header("Content-Type", "application/json").POST(BodyPublishers.ofString(VALID))),
                        notFound()),

                // Odd headers and broken HTTP.
                row("no Authorization", raw("POST " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                        + "Content-Type: application/json\r\nContent-Length: " + VALID.length() + "\r\n\r\n", VALID),
                        unauthorized()),
                row("a wrong key, then the right one", raw("POST " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Connection: close\r\nAuthorization: Bearer sk-gw-wrong\r\n"
                        + "Authorization: Bearer " + TestGateway.KEY + "\r\n"
                        + "Content-Type: application/json\r\nContent-Length: " + VALID.length() + "\r\n\r\n", VALID),
                        unauthorized()),
                row("the right key, then a wrong one", raw("POST " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Connection: close\r\nAuthorization: Bearer " + TestGateway.KEY + "\r\n"
                        + "Authorization: Bearer sk-gw-wrong\r\n"
                        + "Content-Type: application/json\r\nContent-Length: " + VALID.length() + "\r\n\r\n", VALID),
                        unauthorized()),
                row("an absurdly long header", raw(head("POST", PATH, "Content-Type: application/json",
                        "X-Padding: " + "a".repeat(100_000), "Content-Length: " + VALID.length()), VALID),
                        byServer(400)),
                row("an absurdly long Authorization", raw("POST " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                        + "Connection: close\r\nAuthorization: Bearer " + "k".repeat(100_000) + "\r\n"
                        + "Content-Type: application/json\r\nContent-Length: " + VALID.length() + "\r\n\r\n", VALID),
                        byServer(400)),
                row("an absurdly long path", raw(head("POST", PATH + "?" + "q".repeat(100_000),
                        "Content-Type: application/json", "Content-Length: " + VALID.length()), VALID),
                        byServer(414)),
                row("a header name with a space", raw(head("POST", PATH, "Content-Type: application/json",
                        "Bad Header: x", "Content-Length: " + VALID.length()), VALID), byServer(400)),
                row("a request line without a version", raw("POST " + PATH + "\r\nHost: 127.0.0.1\r\n\r\n", ""),
                        byServer(400)),
                row("Content-Length not a number", raw(head("POST", PATH, "Content-Type: application/json",
                        "Content-Length: lots"), VALID), byServer(400)),
                row("Content-Length negative", raw(head("POST", PATH, "Content-Type: application/json",
                        "Content-Length: -1"), VALID), invalid(null)),
                row("Content-Length twice, disagreeing", raw(head("POST", PATH, "Content-Type: application/json",
                        "Content-Length: " + VALID.length(), "Content-Length: 5"), VALID), invalid(null)),
                row("Content-Length and chunked together", raw(head("POST", PATH, "Content-Type: application/json",
                        "Content-Length: 5", "Transfer-Encoding: chunked"), chunk(VALID) + "0\r\n\r\n"),
                        invalid(null)),
                row("a transfer coding other than chunked", raw(head("POST", PATH, "Content-Type: application/json",
                        "Transfer-Encoding: gzip, chunked"), chunk(VALID) + "0\r\n\r\n"), notImplemented()),
                row("a chunk line ending in a bare line feed", raw(head("POST", PATH,
                        "Content-Type: application/json", "Transfer-Encoding: chunked"),
                        Integer.toHexString(VALID.length()) + "\n" + VALID + "\r\n0\r\n\r\n"), invalid(null)),
                row("a chunk size that is not hexadecimal", raw(head("POST", PATH, "Content-Type: application/json",
                        "Transfer-Encoding: chunked"), "zz\r\n" + VALID + "\r\n0\r\n\r\n"), invalid(null)),
                row("a chunk longer than its size", raw(head("POST", PATH, "Content-Type: application/json",
                        "Transfer-Encoding: chunked"), "5\r\n" + VALID + "\r\n0\r\n\r\n"), invalid(null)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("requests")
    void isRefusedWithAFourHundredAndNeverForwarded(Row row) throws Exception {
        int before = upstream.getRequestCount();

        Reply reply = row.call().send();

        assertEquals(row.expected().status(), reply.status(), reply.text());
        if (row.expected().openAiShape()) {
            JsonObject error = readObject(reply.text()).getJsonObject("error");
            assertFalse(error.getString("message").isBlank(), reply.text());
            assertEquals(row.expected().type(), error.getString("type"), reply.text());
            assertEquals(row.expected().param(), stringOrNull(error.get("param")), reply.text());
            assertEquals(row.expected().code(), stringOrNull(error.get("code")), reply.text());
        }
        assertEquals(before, upstream.getRequestCount(), "the request reached the upstream");
    }

    // Expectations.

    /** What a row must be answered with; {@code openAiShape} false for answers Helidon gives itself. */
    record Expected(int status, boolean openAiShape, String type, String param, String code) {
        Expected(int status, String type, String param, String code) {
            this(status, true, type, param, code);
        }
    }

    private static Expected notFound() {
        return new Expected(404, "invalid_request_error", null, "not_found");
    }

    private static Expected invalid(String param) {
        return new Expected(400, "invalid_request_error", param, null);
    }

    /** RFC 9112, section 6.1: a transfer coding the server does not know is answered 501. */
    private static Expected notImplemented() {
        return new Expected(501, "invalid_request_error", null, null);
    }

    private static Expected tooLarge() {
        return new Expected(413, "invalid_request_error", null, "request_too_large");
    }

    private static Expected unsupportedType() {
        return new Expected(415, "invalid_request_error", null, "unsupported_media_type");
    }

    private static Expected unauthorized() {
        return new Expected(401, "authentication_error", null, "invalid_api_key");
    }

    private static Expected byServer(int status) {
        return new Expected(status, false, null, null, null);
    }

    // Requests.

    record Row(String name, Call call, Expected expected) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Row row(String name, Call call, Expected expected) {
        return new Row(name, call, expected);
    }

    /** One way of sending a request: through the JDK's client, or as raw bytes on a socket. */
    record Call(HttpRequest.Builder request, byte[] raw) {
        Call(HttpRequest.Builder request) {
            this(request, null);
        }

        Reply send() throws IOException, InterruptedException {
            if (raw != null) {
                return sendRaw(raw);
            }
            // A client per row: some refusals close the connection, which must not spill into the next row.
            try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(TIMEOUT).build()) {
                HttpResponse<byte[]> response = client.send(request.timeout(TIMEOUT).build(),
                        BodyHandlers.ofByteArray());
                Map<String, List<String>> headers = new HashMap<>();
                response.headers().map().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT), values));
                return new Reply(response.statusCode(), headers, response.body());
            }
        }
    }

    /** A response; header names in lower case. */
    record Reply(int status, Map<String, List<String>> headers, byte[] body) {
        String text() {
            return new String(body, StandardCharsets.UTF_8);
        }

        Optional<String> header(String name) {
            return headers.getOrDefault(name.toLowerCase(Locale.ROOT), List.of()).stream().findFirst();
        }
    }

    private static TestGateway gateway() {
        return gateway;
    }

    private static HttpRequest.Builder request(HttpRequest.BodyPublisher body, String contentType) {
        return gateway.request(PATH).header("Content-Type", contentType).POST(body);
    }

    private static Call json(String body) {
        return bytes(body.getBytes(StandardCharsets.UTF_8));
    }

    private static Call bytes(byte[] body) {
        return new Call(request(BodyPublishers.ofByteArray(body), "application/json"));
    }

    private static Call typed(String body, String contentType) {
        return new Call(request(BodyPublishers.ofString(body), contentType));
    }

    /** A request head with the key, {@code Connection: close} and the given extra header lines. */
    private static String head(String method, String target, String... headers) {
        StringBuilder head = new StringBuilder(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Connection: close\r\nAuthorization: Bearer " + TestGateway.KEY + "\r\n");
        for (String header : headers) {
            head.append(header).append("\r\n");
        }
        return head.append("\r\n").toString();
    }

    private static Call raw(String head, String body) {
        return raw(head, body.getBytes(StandardCharsets.UTF_8));
    }

    private static Call raw(String head, byte[] body) {
        return new Call(null, concat(head.getBytes(StandardCharsets.ISO_8859_1), body));
    }

    private static String chunk(String data) {
        return Integer.toHexString(data.length()) + "\r\n" + data + "\r\n";
    }

    /** A valid request of exactly {@code size} bytes, so that only its size is wrong. */
    private static byte[] padded(int size) {
        String prefix = "{\"model\":\"openai/gpt-5\",\"messages\":[{\"role\":\"user\",\"content\":\"";
        String suffix = "\"}]}";
        return (prefix + "x".repeat(size - prefix.length() - suffix.length()) + suffix)
                .getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] withBytes(String before, byte[] middle, String after) {
        return concat(concat(before.getBytes(StandardCharsets.UTF_8), middle), after.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] all = new byte[first.length + second.length];
        System.arraycopy(first, 0, all, 0, first.length);
        System.arraycopy(second, 0, all, first.length, second.length);
        return all;
    }

    /** Writes a whole request on a fresh connection and reads one response. */
    private static Reply sendRaw(byte[] request) throws IOException {
        try (Socket socket = connect()) {
            write(socket, request);
            return readResponse(socket.getInputStream());
        }
    }

    private static Socket connect() throws IOException {
        Socket socket = new Socket("127.0.0.1", gateway.gateway().port());
        socket.setSoTimeout((int) TIMEOUT.toMillis());
        return socket;
    }

    private static void write(Socket socket, byte[] bytes) {
        try {
            OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
        } catch (IOException e) {
            // The server may answer and close before it has read everything we meant to send.
        }
    }

    /** Reads one response, by its length or its chunks. */
    private static Reply readResponse(InputStream in) throws IOException {
        int status = Integer.parseInt(readLine(in).split(" ")[1]);
        Map<String, List<String>> headers = new HashMap<>();
        for (String line = readLine(in); !line.isEmpty(); line = readLine(in)) {
            int colon = line.indexOf(':');
            String name = line.substring(0, colon).strip().toLowerCase(Locale.ROOT);
            headers.computeIfAbsent(name, any -> new ArrayList<>()).add(line.substring(colon + 1).strip());
        }
        String length = headers.getOrDefault("content-length", List.of("-1")).getFirst();
        if (headers.getOrDefault("transfer-encoding", List.of()).contains("chunked")) {
            ByteArrayOutputStream body = new ByteArrayOutputStream();
            for (int size = Integer.parseInt(readLine(in).split(";")[0].strip(), 16); size > 0;
                 size = Integer.parseInt(readLine(in).split(";")[0].strip(), 16)) {
                body.write(in.readNBytes(size));
                readLine(in);
            }
            return new Reply(status, headers, body.toByteArray());
        }
        int declared = Integer.parseInt(length);
        return new Reply(status, headers, declared >= 0 ? in.readNBytes(declared) : in.readAllBytes());
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != '\n'; b = in.read()) {
            if (b < 0) {
                throw new IOException("The connection closed in the middle of a response head: " + line);
            }
            line.write(b);
        }
        String text = line.toString(StandardCharsets.ISO_8859_1);
        return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
    }

    private static JsonObject readObject(String json) {
        try (JsonReader reader = Json.createReader(new StringReader(json))) {
            return reader.readObject();
        }
    }

    private static String stringOrNull(JsonValue value) {
        assertTrue(value != null, "a member of error is missing");
        return value.getValueType() == JsonValue.ValueType.NULL ? null : ((jakarta.json.JsonString) value).getString();
    }
}
