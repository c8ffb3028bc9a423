package io.aigw.runtime.frontdoor;

import io.aigw.runtime.testing.TestGateway;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Hostile requests, as raw bytes: broken JSON, wrong types, large and deep bodies, broken framing,
 * odd headers, paths, methods and keys, and senders that stall. Every one must be refused; a
 * {@link Entry#mustClose} one must also end its connection.
 */
final class HostileCorpus {
    static final String PATH = "/api/v1/chat/completions";
    static final String MESSAGES = "\"messages\":[{\"role\":\"user\",\"content\":\"Hi\"}]";
    static final String VALID = "{\"model\":\"openai/gpt-5\"," + MESSAGES + "}";
    static final String AUTH = "Authorization: Bearer " + TestGateway.KEY + "\r\n";

    private HostileCorpus() {
    }

    /** One hostile request: its bytes in the pieces they are sent in, and what its connection must do. */
    record Entry(String name, List<byte[]> pieces, boolean mustClose, boolean stalls, boolean framed) {
        Entry(String name, List<byte[]> pieces, boolean mustClose, boolean stalls) {
            this(name, pieces, mustClose, stalls, true);
        }

        /** The same request, whose bytes are not one whole request as its framing declares. */
        Entry unframed() {
            return new Entry(name, pieces, mustClose, stalls, false);
        }

        @Override
        public String toString() {
            return name;
        }
    }

    static List<Entry> all() {
        List<Entry> all = new ArrayList<>();
        json(all);
        types(all);
        sizes(all);
        framing(all);
        headers(all);
        paths(all);
        methods(all);
        auth(all);
        slow(all);
        return all;
    }

    private static void json(List<Entry> all) {
        // Every truncation of a valid body.
        for (int end = 0; end < VALID.length(); end++) {
            all.add(body("truncated at " + end, VALID.substring(0, end)));
        }
        String[] broken = {"{'model':'openai/gpt-5'}", "{model:\"openai/gpt-5\"}", "{\"model\" \"x\"}",
            "{\"model\":\"openai/gpt-5\",}", "[" + VALID + "]", VALID + VALID, VALID + "x", VALID + ",", "}", "{{}}",
            "{\"model\":NaN}", "{\"model\":\"openai/gpt-5\"," + MESSAGES + ",\"t\":Infinity}", "{\"a\":0x10}",
            "{\"a\":012}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":-}", "{\"a\":1e}", "{\"a\":tru}", "{\"a\":nul}",
            "{\"a\":\"\\x41\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"\\ud800\"}", "{\"a\":\"tab\there\"}",
            "{\"a\":\"nl\nhere\"}", "{/*c*/\"a\":1}", "{\"a\":1}//c", "\"model\"", "42", "null", "true", "",
            " ", "\r\n", "{\"\":1}", "{\"model\":\"openai/gpt-5\"," + MESSAGES + ",\"model\":\"xai/grok-4\"}",
            "{\"mod\\u0065l\":\"openai/gpt-5\",\"model\":\"x\"," + MESSAGES + "}", "{\"model\":\"\\u0000\"," + MESSAGES
                + "}", "{\"model\":\"openai/gpt-5\"," + MESSAGES + "}\u0000", "\uFEFF" + VALID};
        for (int i = 0; i < broken.length; i++) {
            all.add(body("broken JSON " + i, broken[i]));
        }
        byte[][] notUtf8 = {{(byte) 0x80}, {(byte) 0xC0, (byte) 0xAF}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
            {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80}, {(byte) 0xFF}, {(byte) 0xE2, (byte) 0x82}};
        for (int i = 0; i < notUtf8.length; i++) {
            all.add(bodyBytes("not UTF-8 " + i, concat(ascii("{\"model\":\"openai/gpt-5\",\"user\":\""), notUtf8[i],
                    ascii("\"," + MESSAGES + "}"))));
        }
        all.add(bodyBytes("UTF-16", VALID.getBytes(StandardCharsets.UTF_16)));
    }

    private static void types(List<Entry> all) {
        String[] values = {"null", "1", "-1", "1.5", "true", "false", "\"\"", "\" \"", "[]", "{}", "[1]", "{\"a\":1}",
            "\"x\"", "1e400"};
        for (String value : values) {
            all.add(body("model " + value, "{\"model\":" + value + "," + MESSAGES + "}"));
            all.add(body("messages " + value, "{\"model\":\"openai/gpt-5\",\"messages\":" + value + "}"));
            if (!value.equals("true") && !value.equals("false")) {
                all.add(body("stream " + value, "{\"model\":\"openai/gpt-5\",\"stream\":" + value + "," + MESSAGES + "}"));
            }
            if (!value.equals("null") && !value.equals("{}") && !value.equals("{\"a\":1}")) {
                all.add(body("stream_options " + value, "{\"model\":\"openai/gpt-5\",\"stream\":true,"
                        + "\"stream_options\":" + value + "," + MESSAGES + "}"));
            }
        }
        String[] models = {"gateway/other", "openai/", "/gpt-5", "gateway/", "a/b/c/d", "openai/gpt-5\n", "\u202e",
            "openai/" + "x".repeat(10_000)};
        for (String model : models) {
            all.add(body("model id " + model.length(), "{\"model\":\"" + model.replace("\n", "\\n") + "\","
                    + MESSAGES + "}"));
        }
    }

    private static void sizes(List<Entry> all) {
        int[] sizes = {1 << 10, 64 << 10, 512 << 10, 1 << 20};
        for (int size : sizes) {
            all.add(body("nesting " + size, "{\"model\":\"openai/gpt-5\"," + MESSAGES + ",\"x\":" + "[".repeat(size)));
            all.add(body("white space " + size, " ".repeat(size)));
            all.add(body("garbage " + size, "x".repeat(size)));
            all.add(body("object nesting " + size, "{\"a\":".repeat(size / 5)));
            all.add(body("unclosed string " + size, "{\"model\":\"" + "m".repeat(size)));
            all.add(body("many keys " + size, "{" + "\"k\":1,".repeat(size / 6) + "\"model\":1}"));
        }
        all.add(raw("declared a terabyte, sends little", post("Content-Length: 1000000000000\r\n") + VALID, false)
                .unframed());
        all.add(raw("declared 2^63", post("Content-Length: 9223372036854775808\r\n") + VALID, true));
    }

    private static void framing(List<Entry> all) {
        String chunked = chunk(VALID) + "0\r\n\r\n";
        String[] lengths = {"+" + VALID.length(), "-1", "0x10", "1e3", VALID.length() + ", " + VALID.length(),
            VALID.length() + ",5", "lots", "", "1 2", "\t" + VALID.length() + "x"};
        for (String length : lengths) {
            all.add(raw("Content-Length '" + length + "'", post("Content-Length: " + length + "\r\n") + VALID, true));
        }
        all.add(raw("two Content-Lengths", post("Content-Length: " + VALID.length() + "\r\nContent-Length: 5\r\n")
                + VALID, true));
        all.add(raw("Content-Length then chunked", post("Content-Length: 5\r\nTransfer-Encoding: chunked\r\n")
                + chunked, true));
        all.add(raw("chunked then Content-Length", post("Transfer-Encoding: chunked\r\nContent-Length: 5\r\n")
                + chunked, true));
        String[] codings = {"chunked, chunked", "gzip", "gzip, chunked", "identity", "chunked, gzip", "xchunked",
            "chunked;q=1", "\u000bchunked", ""};
        for (String coding : codings) {
            all.add(raw("Transfer-Encoding '" + coding + "'", post("Transfer-Encoding: " + coding + "\r\n") + chunked,
                    !coding.startsWith("\u000b")));
        }
        String[] chunkings = {"zz\r\n" + VALID + "\r\n0\r\n\r\n", "5\r\n" + VALID + "\r\n0\r\n\r\n",
            Integer.toHexString(VALID.length()) + "\n" + VALID + "\r\n0\r\n\r\n",
            "-5\r\n" + VALID + "\r\n0\r\n\r\n", "fffffffffffffffff\r\n" + VALID + "\r\n0\r\n\r\n",
            chunk(VALID) + "0\r\nX-Trailer: 1\r\nbroken\r\n\r\n", chunk(VALID) + "1\r\n\r\n0\r\n\r\n" + "junk"};
        for (int i = 0; i < chunkings.length; i++) {
            Entry broken = raw("broken chunks " + i, post("Transfer-Encoding: chunked\r\n") + chunkings[i], i < 5);
            all.add(i < 5 ? broken : broken.unframed());
        }
        String[] lines = {"POST " + PATH + "\r\n", "POST " + PATH + " HTTP/2.0\r\n", "POST " + PATH + " HTTP/1.2\r\n",
            "POST " + PATH + " HTTP/0.9\r\n", "POST " + PATH + " http/1.1\r\n", "POST  " + PATH + " HTTP/1.1\r\n",
            "POST\t" + PATH + " HTTP/1.1\r\n", "POST " + PATH + " HTTP/1.1 x\r\n", " POST " + PATH + " HTTP/1.1\r\n",
            "POST " + PATH + "\tHTTP/1.1\r\n", "POST " + PATH + " HTTP/1.1\n", "POST " + PATH + " HTTP/1.1\r",
            "\r\nPOST " + PATH + " HTTP/1.1\r\n"};
        for (int i = 0; i < lines.length; i++) {
            all.add(raw("request line " + i, lines[i] + "Host: 127.0.0.1\r\n" + AUTH
                    + "Content-Type: application/json\r\nContent-Length: 3\r\n\r\n{x}", false));
        }
        all.add(raw("body then pipelined garbage", post("Content-Length: 3\r\n") + "{x}" + "GARBAGE\r\n\r\n", false)
                .unframed());
    }

    private static void headers(List<Entry> all) {
        String[] odd = {": x", "X-Space : x", "X Space: x", "X-Nul: a\u0000b", "X-Bell: a\u0007b", "X-Fold: a\r\n b",
            "NoColon", "X-Long-Name" + "n".repeat(20_000) + ": x", "X-Long: " + "v".repeat(20_000),
            "X-Del\u007f: x", "X-CR: a\rb", "Host: 127.0.0.1", "Host: a b", "Host: 127.0.0.1:99999999",
            "Host: [::1", "Host: exa mple.com", "X-Ünicode: x"};
        for (int i = 0; i < odd.length; i++) {
            all.add(raw("odd header " + i, post(odd[i] + "\r\nContent-Length: " + VALID.length() + "\r\n") + VALID,
                    false));
        }
        StringBuilder many = new StringBuilder();
        for (int i = 0; i < 2_000; i++) {
            many.append("X-Many-").append(i).append(": ").append(i).append("\r\n");
        }
        all.add(raw("two thousand headers", post(many + "Content-Length: " + VALID.length() + "\r\n") + VALID, true));
        all.add(raw("no Host", ("POST " + PATH + " HTTP/1.1\r\n" + AUTH + "Content-Type: application/json\r\n"
                + "Content-Length: " + VALID.length() + "\r\n\r\n") + VALID, true));
        String[] types = {"text/plain", "application/xml", "text/json", "json", "", "application/x-www-form-urlencoded",
            "multipart/form-data; boundary=b", "application/json; charset=utf-16", "application/json\u0001",
            "*/*", "application/jsonx", "application/json;;;;"};
        for (int i = 0; i < types.length; i++) {
            all.add(raw("Content-Type " + i, ("POST " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + AUTH
                    + "Content-Type: " + types[i] + "\r\nContent-Length: 5\r\n\r\n") + "{x:1}", false));
        }
        String[] expects = {"100-continue", "200-ok", "100-continue, x", ""};
        for (int i = 0; i < expects.length; i++) {
            all.add(raw("Expect " + i, post("Expect: " + expects[i] + "\r\nContent-Length: 3\r\n") + "{x}", false));
        }
    }

    private static void paths(List<Entry> all) {
        String[] paths = {"/admin/v1/keys", "/api/v1/../../admin/v1/keys", "//admin/v1/keys", "/%2e%2e/admin/v1/keys",
            "/api/v1/chat/completions/", "/API/V1/CHAT/COMPLETIONS", "/api/v1/chat/completions/../../../admin/v1/keys",
            "/api/v1/chat%2fcompletions", "/api/v1/chat/completions%00", "/api/v1/chat/completions;x=1",
            "/api/v1/chat/completions?" + "q".repeat(3000), "/api/v1/chat/completions#frag", "*",
            "http://127.0.0.1/admin/v1/keys", "/\u00e9", "/%zz", "/api/v1/chat/completions?a=%", "/" + "a/".repeat(500),
            "/api/v1/models/../../admin/v1/usage", "/observe/../admin/v1/keys", "/admin\\v1\\keys", "/.%2e/admin"};
        for (int i = 0; i < paths.length; i++) {
            all.add(raw("path " + i, ("POST " + paths[i] + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + AUTH
                    + "Content-Type: application/json\r\nContent-Length: 3\r\n\r\n") + "{x}", false));
        }
    }

    private static void methods(List<Entry> all) {
        String[] methods = {"GET", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "CONNECT", "FOO", "post", "Post",
            "P\u0001ST", "PO ST", "POST\u0000", "\u00c9POST", "M-SEARCH", "P(ST"};
        for (int i = 0; i < methods.length; i++) {
            all.add(raw("method " + i, (methods[i] + " " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + AUTH
                    + "Content-Type: application/json\r\nContent-Length: 3\r\n\r\n") + "{x}", false));
        }
    }

    private static void auth(List<Entry> all) {
        String[] keys = {"", "Bearer", "Bearer ", "bearer " + TestGateway.KEY, "Basic dXNlcjpwYXNz",
            "Bearer sk-gw-wrong", "Bearer " + TestGateway.KEY + "x", "Bearer  " + TestGateway.KEY,
            "Bearer " + "k".repeat(10_000), "Bearer sk-gw-\u0001", "Bearer sk-upstream-secret-openai",
            "Bearer " + TestGateway.KEY.substring(0, 10), "Token " + TestGateway.KEY, "Bearer sk-gw-%00"};
        for (int i = 0; i < keys.length; i++) {
            all.add(raw("key " + i, "POST " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: " + keys[i]
                    + "\r\nContent-Type: application/json\r\nContent-Length: " + VALID.length() + "\r\n\r\n" + VALID,
                    false));
        }
        all.add(raw("no key", "POST " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + VALID.length() + "\r\n\r\n" + VALID, false));
        all.add(raw("two keys", "POST " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer sk-gw-wrong\r\n"
                + AUTH + "Content-Type: application/json\r\nContent-Length: " + VALID.length() + "\r\n\r\n" + VALID,
                false));
        all.add(raw("admin API with a caller's key twice", "GET /admin/v1/keys HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Authorization: Bearer sk-gw-nope\r\n\r\n", false));
    }

    private static void slow(List<Entry> all) {
        byte[] request = ascii(post("Content-Length: 3\r\n") + "{x}");
        for (int pieces : new int[] {2, 5, 20}) {
            List<byte[]> split = new ArrayList<>();
            int step = (request.length + pieces - 1) / pieces;
            for (int at = 0; at < request.length; at += step) {
                split.add(java.util.Arrays.copyOfRange(request, at, Math.min(request.length, at + step)));
            }
            all.add(new Entry("sent in " + pieces + " pieces", split, false, false));
        }
        all.add(new Entry("stalls before sending", List.of(), true, true));
        all.add(new Entry("stalls in the request line", List.of(ascii("POST /api/v1/ch")), true, true));
        all.add(new Entry("stalls in the headers", List.of(ascii(post("Content-Length: 3\r\n").substring(0, 60))),
                true, true));
        all.add(new Entry("stalls in the body", List.of(ascii(post("Content-Length: 30\r\n") + "{\"model\"")), true,
                true));
        all.add(new Entry("stalls in a chunk", List.of(ascii(post("Transfer-Encoding: chunked\r\n") + "1e\r\n{")),
                true, true));
    }

    static String post(String headers) {
        return "POST " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + AUTH + "Content-Type: application/json\r\n"
                + headers + "\r\n";
    }

    private static Entry body(String name, String body) {
        return bodyBytes(name, body.getBytes(StandardCharsets.UTF_8));
    }

    private static Entry bodyBytes(String name, byte[] body) {
        return new Entry(name, List.of(concat(ascii(post("Content-Length: " + body.length + "\r\n")), body)), false,
                false);
    }

    private static Entry raw(String name, String request, boolean mustClose) {
        return new Entry(name, List.of(request.getBytes(StandardCharsets.UTF_8)), mustClose, false);
    }

    private static String chunk(String data) {
        return Integer.toHexString(data.length()) + "\r\n" + data + "\r\n";
    }

    private static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            all.writeBytes(part);
        }
        return all.toByteArray();
    }
}
