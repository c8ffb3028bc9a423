package io.aigw.runtime.testing;

import mockwebserver3.MockResponse;
import okio.Buffer;

/**
 * Anthropic's Messages API as its upstream speaks it, to script a MockWebServer with: whole
 * answers, event streams (thinking with its signature, text, a tool call's {@code input_json_delta},
 * pings, the split usage of {@code message_start} and {@code message_delta}, with cache reads and
 * writes) and errors in Anthropic's shape, each with the {@code request-id} and {@code anthropic-*}
 * headers the API sends. The texts follow Anthropic's documentation of the wire format.
 */
public final class AnthropicUpstream {
    /** The upstream's id of each answer, in its {@code request-id} header. */
    public static final String REQUEST_ID = "req_011CSHoEeqs5C35K2UUqR7Fy";
    /** A whole answer: 12 input tokens, 100 written into the cache, 2000 read from it, 6 output. */
    public static final String MESSAGE = "{\"id\":\"msg_01XFDUDYJgAACzvnptvVoYEL\",\"type\":\"message\","
            + "\"role\":\"assistant\",\"model\":\"claude-sonnet-4-5-20250929\",\"content\":[{\"type\":\"text\","
            + "\"text\":\"Hello!\"}],\"stop_reason\":\"end_turn\",\"stop_sequence\":null,\"usage\":{\"input_tokens\":12,"
            + "\"cache_creation_input_tokens\":100,\"cache_read_input_tokens\":2000,\"cache_creation\":"
            + "{\"ephemeral_5m_input_tokens\":100,\"ephemeral_1h_input_tokens\":0},\"output_tokens\":6,"
            + "\"service_tier\":\"standard\"}}";
    /**
     * A streamed turn that thinks, says a sentence and calls a tool: 472 input tokens, 1000 written
     * into the cache, 20000 read from it, 89 output (the count {@code message_delta} ends with).
     */
    public static final String STREAM = event("message_start", "{\"type\":\"message_start\",\"message\":"
            + "{\"id\":\"msg_014p7gG3wDgGV9EUtLvnow3U\",\"type\":\"message\",\"role\":\"assistant\","
            + "\"model\":\"claude-sonnet-4-5-20250929\",\"content\":[],\"stop_reason\":null,\"stop_sequence\":null,"
            + "\"usage\":{\"input_tokens\":472,\"cache_creation_input_tokens\":1000,\"cache_read_input_tokens\":20000,"
            + "\"output_tokens\":2}}}")
            + event("content_block_start", "{\"type\":\"content_block_start\",\"index\":0,\"content_block\":"
            + "{\"type\":\"thinking\",\"thinking\":\"\",\"signature\":\"\"}}")
            + event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
            + "{\"type\":\"thinking_delta\",\"thinking\":\"The user asks for the weather; a tool tells it.\"}}")
            + event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":0,\"delta\":"
            + "{\"type\":\"signature_delta\",\"signature\":\"EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds\"}}")
            + event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":0}")
            + event("ping", "{\"type\": \"ping\"}")
            + event("content_block_start", "{\"type\":\"content_block_start\",\"index\":1,\"content_block\":"
            + "{\"type\":\"text\",\"text\":\"\"}}")
            + event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":1,\"delta\":"
            + "{\"type\":\"text_delta\",\"text\":\"Let me check the weather.\"}}")
            + event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":1}")
            + event("content_block_start", "{\"type\":\"content_block_start\",\"index\":2,\"content_block\":"
            + "{\"type\":\"tool_use\",\"id\":\"toolu_01T1x1fJ34qAmk2tNTrN7Up6\",\"name\":\"get_weather\",\"input\":{}}}")
            + event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":2,\"delta\":"
            + "{\"type\":\"input_json_delta\",\"partial_json\":\"\"}}")
            + event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":2,\"delta\":"
            + "{\"type\":\"input_json_delta\",\"partial_json\":\"{\\\"location\\\": \\\"San Fra\"}}")
            + event("content_block_delta", "{\"type\":\"content_block_delta\",\"index\":2,\"delta\":"
            + "{\"type\":\"input_json_delta\",\"partial_json\":\"ncisco, CA\\\"}\"}}")
            + event("content_block_stop", "{\"type\":\"content_block_stop\",\"index\":2}")
            + event("message_delta", "{\"type\":\"message_delta\",\"delta\":{\"stop_reason\":\"tool_use\","
            + "\"stop_sequence\":null},\"usage\":{\"output_tokens\":89}}")
            + event("message_stop", "{\"type\":\"message_stop\"}");
    /** {@link #STREAM} up to its first text, where an upstream that breaks stops. */
    public static final String STREAM_START = STREAM.substring(0, STREAM.indexOf("event: content_block_stop"));

    private AnthropicUpstream() {
    }

    /** One event as Anthropic writes it: its name, its data, a blank line. */
    public static String event(String name, String data) {
        return "event: " + name + "\ndata: " + data + "\n\n";
    }

    /** A whole answer, {@code body}, with Anthropic's headers. */
    public static MockResponse message(String body) {
        return withHeaders(new MockResponse.Builder().code(200)).setHeader("Content-Type", "application/json")
                .body(body).build();
    }

    /** An event stream, {@code events}, sent in chunks, with Anthropic's headers. */
    public static MockResponse stream(String events) {
        return withHeaders(new MockResponse.Builder().code(200)).setHeader("Content-Type", "text/event-stream")
                .setHeader("Cache-Control", "no-cache").chunkedBody(new Buffer().writeUtf8(events), 64).build();
    }

    /** An error answer in Anthropic's shape, as its API sends one with {@code status}. */
    public static MockResponse error(int status, String type, String message) {
        return withHeaders(new MockResponse.Builder().code(status)).setHeader("Content-Type", "application/json")
                .body(errorBody(type, message)).build();
    }

    /** The body of an error in Anthropic's shape. */
    public static String errorBody(String type, String message) {
        return "{\"type\":\"error\",\"error\":{\"type\":\"" + type + "\",\"message\":\"" + message + "\"},"
                + "\"request_id\":\"" + REQUEST_ID + "\"}";
    }

    private static MockResponse.Builder withHeaders(MockResponse.Builder builder) {
        return builder.setHeader("request-id", REQUEST_ID)
                .setHeader("anthropic-organization-id", "27796668-7351-40ac-acc4-024aee8995a5")
                .setHeader("anthropic-ratelimit-requests-remaining", "49");
    }
}
