package io.aigw.runtime.testing;

import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonObject;
import jakarta.json.JsonValue;
import java.io.StringReader;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import mockwebserver3.Dispatcher;
import mockwebserver3.MockResponse;
import mockwebserver3.RecordedRequest;

/**
 * A fake Anthropic model for a MockWebServer that plays one agent turn as the real one does: asked
 * with a {@code Bash} tool on offer, it streams a {@code tool_use} block (its input as
 * {@code input_json_delta}) running {@link #command}; asked again with that tool's
 * {@code tool_result}, it streams a text that quotes the result's first line. Any other request to
 * {@code /v1/messages} gets a short text; any other path a 404 in Anthropic's error shape.
 *
 * <p>Its answers are written, and sent, as {@link AnthropicUpstream}'s are. Each reports the same usage, {@link #USAGE}, with cache writes and reads, the way the
 * real API splits it: all but the output in {@code message_start}, the output in {@code message_delta}.
 */
public final class ToolTurnModel extends Dispatcher {
    /** The usage of every answer: input, cache write, cache read, output tokens. */
    public static final Usage USAGE = new Usage(100, 20, 30, 7);

    /** The text answered after the tool's result: this, then the result's first line. */
    public static final String ANSWER = "The tool printed: ";

    private final String command;

    /** A model that asks to run {@code command} with the Bash tool. */
    public ToolTurnModel(String command) {
        this.command = command;
    }

    /** Token counts of one answer. */
    public record Usage(int input, int cacheWrite, int cacheRead, int output) {
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        if (!"POST".equals(request.getMethod()) || !request.getUrl().encodedPath().endsWith("/v1/messages")) {
            return AnthropicUpstream.error(404, "not_found_error", "Not found: " + request.getUrl().encodedPath());
        }
        JsonObject body = Json.createReader(new StringReader(request.getBody().utf8())).readObject();
        String model = body.getString("model");
        Optional<String> result = toolResult(body.getJsonArray("messages"));
        if (result.isPresent()) {
            return stream(model, text(ANSWER + result.get().lines().findFirst().orElse("")), "end_turn");
        }
        boolean bashOffered = body.containsKey("tools") && body.getJsonArray("tools").stream()
                .anyMatch(tool -> "Bash".equals(tool.asJsonObject().getString("name", "")));
        if (bashOffered) {
            String input = Json.createObjectBuilder().add("command", command).add("description", "Run the command")
                    .build().toString();
            return stream(model, List.of(
                    event("content_block_start", Json.createObjectBuilder().add("type", "content_block_start")
                            .add("index", 0).add("content_block", Json.createObjectBuilder().add("type", "tool_use")
                                    .add("id", "toolu_01").add("name", "Bash").add("input", JsonValue.EMPTY_JSON_OBJECT))
                            .build()),
                    delta(Json.createObjectBuilder().add("type", "input_json_delta")
                            .add("partial_json", input.substring(0, input.length() / 2)).build()),
                    delta(Json.createObjectBuilder().add("type", "input_json_delta")
                            .add("partial_json", input.substring(input.length() / 2)).build())), "tool_use");
        }
        return stream(model, text("Nothing to run."), "end_turn");
    }

    /** The text of the last message's {@code tool_result}, if it holds one. */
    private static Optional<String> toolResult(JsonArray messages) {
        JsonValue content = messages.getJsonObject(messages.size() - 1).get("content");
        if (content.getValueType() != JsonValue.ValueType.ARRAY) {
            return Optional.empty();
        }
        return content.asJsonArray().stream().map(JsonValue::asJsonObject)
                .filter(block -> "tool_result".equals(block.getString("type", ""))).findFirst()
                .map(block -> block.get("content").getValueType() == JsonValue.ValueType.STRING
                        ? block.getString("content")
                        : block.getJsonArray("content").stream().map(JsonValue::asJsonObject)
                                .map(part -> part.getString("text", "")).collect(Collectors.joining()));
    }

    private static List<String> text(String text) {
        return List.of(event("content_block_start", Json.createObjectBuilder().add("type", "content_block_start")
                        .add("index", 0).add("content_block", Json.createObjectBuilder().add("type", "text").add("text", ""))
                        .build()),
                delta(Json.createObjectBuilder().add("type", "text_delta").add("text", text).build()));
    }

    private static String delta(JsonObject delta) {
        return event("content_block_delta", Json.createObjectBuilder().add("type", "content_block_delta")
                .add("index", 0).add("delta", delta).build());
    }

    private static MockResponse stream(String model, List<String> block, String stopReason) {
        StringBuilder events = new StringBuilder();
        events.append(event("message_start", Json.createObjectBuilder().add("type", "message_start")
                .add("message", Json.createObjectBuilder().add("id", "msg_01").add("type", "message")
                        .add("role", "assistant").add("model", model).add("content", JsonValue.EMPTY_JSON_ARRAY)
                        .addNull("stop_reason").addNull("stop_sequence")
                        .add("usage", Json.createObjectBuilder().add("input_tokens", USAGE.input())
                                .add("cache_creation_input_tokens", USAGE.cacheWrite())
                                .add("cache_read_input_tokens", USAGE.cacheRead()).add("output_tokens", 1)))
                .build()));
        events.append(event("ping", Json.createObjectBuilder().add("type", "ping").build()));
        block.forEach(events::append);
        events.append(event("content_block_stop", Json.createObjectBuilder().add("type", "content_block_stop")
                .add("index", 0).build()));
        events.append(event("message_delta", Json.createObjectBuilder().add("type", "message_delta")
                .add("delta", Json.createObjectBuilder().add("stop_reason", stopReason).addNull("stop_sequence"))
                .add("usage", Json.createObjectBuilder().add("output_tokens", USAGE.output())).build()));
        events.append(event("message_stop", Json.createObjectBuilder().add("type", "message_stop").build()));
        return AnthropicUpstream.stream(events.toString());
    }

    private static String event(String name, JsonObject data) {
        return AnthropicUpstream.event(name, data.toString());
    }
}
