package io.aigw.runtime.api;

import io.aigw.runtime.HotPathBenchmark;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;

/**
 * The {@code model} rewrite every chat request goes through: validate the caller's body, then
 * splice the upstream's model id into it. Bodies are a conversation whose messages carry long
 * text (newlines, quotes, a little non-ASCII), grown to the size given.
 */
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class ChatRequestBenchmark extends HotPathBenchmark {
    private static final String PARAGRAPH = "The gateway keeps the caller's bytes and changes only the model. "
            + "It routes on the prefix before the first slash, \"openai/gpt-5\" for example, and relays "
            + "streams event by event.\nCafé, naïve, 東京: text is UTF-8 and stays as it came.\n";

    @Param({"1KB", "100KB", "1MB"})
    public String size;

    private byte[] body;
    private ChatRequest parsed;

    @Setup
    public void setUp() {
        body = chatBody(switch (size) {
            case "1KB" -> 1_000;
            case "100KB" -> 100_000;
            case "1MB" -> 1_000_000;
            default -> throw new IllegalArgumentException("size must be 1KB, 100KB or 1MB, not " + size);
        });
        parsed = ChatRequest.parse(body);
    }

    @Benchmark
    public byte[] parseAndRewrite() {
        return ChatRequest.parse(body).forUpstream("gpt-5", Set.of());
    }

    @Benchmark
    public ChatRequest parseOnly() {
        return ChatRequest.parse(body);
    }

    @Benchmark
    public byte[] rewriteOnly() {
        return parsed.forUpstream("gpt-5", Set.of());
    }

    /** A chat body of about {@code bytes} bytes: a system prompt, then user and assistant turns. */
    static byte[] chatBody(int bytes) {
        int turns = Math.max(2, bytes / 50_000);
        int perMessage = Math.max(1, (bytes - 200) / (turns + 1));
        StringBuilder json = new StringBuilder(bytes + 1_000)
                .append("{\"model\":\"openai/gpt-5\",\"messages\":[")
                .append(message("system", perMessage));
        for (int turn = 0; turn < turns; turn++) {
            json.append(',').append(message(turn % 2 == 0 ? "user" : "assistant", perMessage));
        }
        json.append("],\"temperature\":0.2,\"max_tokens\":512,\"stream\":false,\"user\":\"bench\"}");
        return json.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A message whose content, escaped as JSON, takes about {@code bytes} bytes. */
    private static String message(String role, int bytes) {
        String escaped = PARAGRAPH.replace("\"", "\\\"").replace("\n", "\\n");
        String content = escaped.repeat(bytes / escaped.getBytes(StandardCharsets.UTF_8).length + 1);
        long contentBytes = content.getBytes(StandardCharsets.UTF_8).length;
        int cut = (int) Math.min(content.length(), (long) bytes * content.length() / contentBytes);
        if (cut > 0 && content.charAt(cut - 1) == '\\') {
            cut--; // the text has no backslash of its own: this one starts an escape, which must not be cut
        }
        return "{\"role\":\"" + role + "\",\"content\":\"" + content.substring(0, cut) + "\"}";
    }
}
