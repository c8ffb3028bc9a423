package io.aigw.runtime.testing;

import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import mockwebserver3.MockResponse;

/**
 * OpenAI's Responses API as a fake upstream writes it: a response object ({@code object:
 * "response"}, its {@code output} items, its {@code usage} with the details), and the events of its
 * stream as OpenAI sends them ({@code event:} and {@code data:}, {@code sequence_number} counting
 * from 0, {@code response.created} first and {@code response.completed} last, no {@code [DONE]}).
 * Output items are messages (text streamed as {@code response.output_text.delta}) and function
 * calls (arguments streamed as {@code response.function_call_arguments.delta}).
 */
public final class ResponsesUpstream {
    /** When every response here was created. */
    public static final long CREATED_AT = 1_764_800_000L;

    private ResponsesUpstream() {
    }

    /** An output item of a response. */
    public sealed interface Item {
    }

    /** An assistant message whose text is one {@code output_text} part. */
    public record Message(String id, String text) implements Item {
    }

    /** A call of the function {@code name} with {@code arguments} (JSON text), answered by a {@code function_call_output} of {@code callId}. */
    public record FunctionCall(String id, String callId, String name, String arguments) implements Item {
    }

    /** A response's {@code usage}: its input tokens (of them {@code cached} read from the cache) and output tokens (of them {@code reasoning}). */
    public record Usage(long input, long cached, long output, long reasoning) {
        public JsonObject json() {
            return Json.createObjectBuilder()
                    .add("input_tokens", input)
                    .add("input_tokens_details", Json.createObjectBuilder().add("cached_tokens", cached))
                    .add("output_tokens", output)
                    .add("output_tokens_details", Json.createObjectBuilder().add("reasoning_tokens", reasoning))
                    .add("total_tokens", input + output)
                    .build();
        }
    }

    /** A response answered with one message of {@code text}. */
    public static String response(String id, String model, String text, Usage usage) {
        return response(id, model, List.of(new Message("msg_" + id, text)), usage);
    }

    /** A completed response with {@code output}, as a plain answer's body. */
    public static String response(String id, String model, List<Item> output, Usage usage) {
        return responseObject(id, model, "completed", output, usage).build().toString();
    }

    /** A plain answer of {@link #response(String, String, List, Usage)}. */
    public static MockResponse plain(String id, String model, List<Item> output, Usage usage) {
        return new MockResponse.Builder().code(200).setHeader("Content-Type", "application/json")
                .body(response(id, model, output, usage)).build();
    }

    /** A streamed answer of every event of {@link #events}. */
    public static MockResponse streamed(String id, String model, List<Item> output, Usage usage) {
        return new MockResponse.Builder().code(200).setHeader("Content-Type", "text/event-stream")
                .body(String.join("", events(id, model, output, usage))).build();
    }

    /** The events of a stream that creates the response, writes {@code output} and completes with {@code usage}. */
    public static List<String> events(String id, String model, List<Item> output, Usage usage) {
        Events events = new Events();
        events.add("response.created", Json.createObjectBuilder()
                .add("response", responseObject(id, model, "in_progress", List.of(), null)));
        events.add("response.in_progress", Json.createObjectBuilder()
                .add("response", responseObject(id, model, "in_progress", List.of(), null)));
        for (int index = 0; index < output.size(); index++) {
            switch (output.get(index)) {
                case Message message -> message(events, index, message);
                case FunctionCall call -> functionCall(events, index, call);
            }
        }
        events.add("response.completed", Json.createObjectBuilder()
                .add("response", responseObject(id, model, "completed", output, usage)));
        return events.list;
    }

    /** {@code DELETE /responses/{id}}'s answer. */
    public static String deleted(String id) {
        return Json.createObjectBuilder().add("id", id).add("object", "response.deleted").add("deleted", true)
                .build().toString();
    }

    /** {@code GET /responses/{id}/input_items}' answer: one user message of {@code text}. */
    public static String inputItems(String itemId, String text) {
        return Json.createObjectBuilder().add("object", "list")
                .add("data", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("id", itemId).add("type", "message").add("role", "user").add("status", "completed")
                        .add("content", Json.createArrayBuilder().add(Json.createObjectBuilder()
                                .add("type", "input_text").add("text", text)))))
                .add("first_id", itemId).add("last_id", itemId).add("has_more", false)
                .build().toString();
    }

    private static void message(Events events, int index, Message message) {
        events.add("response.output_item.added", Json.createObjectBuilder().add("output_index", index)
                .add("item", messageItem(message, "in_progress", "")));
        events.add("response.content_part.added", Json.createObjectBuilder().add("item_id", message.id())
                .add("output_index", index).add("content_index", 0).add("part", textPart("")));
        for (String delta : pieces(message.text())) {
            events.add("response.output_text.delta", Json.createObjectBuilder().add("item_id", message.id())
                    .add("output_index", index).add("content_index", 0).add("delta", delta)
                    .add("logprobs", Json.createArrayBuilder()));
        }
        events.add("response.output_text.done", Json.createObjectBuilder().add("item_id", message.id())
                .add("output_index", index).add("content_index", 0).add("text", message.text())
                .add("logprobs", Json.createArrayBuilder()));
        events.add("response.content_part.done", Json.createObjectBuilder().add("item_id", message.id())
                .add("output_index", index).add("content_index", 0).add("part", textPart(message.text())));
        events.add("response.output_item.done", Json.createObjectBuilder().add("output_index", index)
                .add("item", messageItem(message, "completed", message.text())));
    }

    private static void functionCall(Events events, int index, FunctionCall call) {
        events.add("response.output_item.added", Json.createObjectBuilder().add("output_index", index)
                .add("item", callItem(call, "in_progress", "")));
        for (String delta : pieces(call.arguments())) {
            events.add("response.function_call_arguments.delta", Json.createObjectBuilder()
                    .add("item_id", call.id()).add("output_index", index).add("delta", delta));
        }
        events.add("response.function_call_arguments.done", Json.createObjectBuilder().add("item_id", call.id())
                .add("output_index", index).add("name", call.name()).add("arguments", call.arguments()));
        events.add("response.output_item.done", Json.createObjectBuilder().add("output_index", index)
                .add("item", callItem(call, "completed", call.arguments())));
    }

    private static JsonObjectBuilder responseObject(String id, String model, String status, List<Item> output,
                                                    Usage usage) {
        JsonArrayBuilder items = Json.createArrayBuilder();
        for (Item item : output) {
            items.add(switch (item) {
                case Message message -> messageItem(message, "completed", message.text());
                case FunctionCall call -> callItem(call, "completed", call.arguments());
            });
        }
        JsonObjectBuilder response = Json.createObjectBuilder()
                .add("id", id).add("object", "response").add("created_at", CREATED_AT).add("status", status)
                .add("background", false).addNull("error").addNull("incomplete_details").addNull("instructions")
                .addNull("max_output_tokens").add("model", model).add("output", items)
                .add("parallel_tool_calls", true).addNull("previous_response_id")
                .add("reasoning", Json.createObjectBuilder().addNull("effort").addNull("summary"))
                .add("store", true).add("temperature", new BigDecimal("1.0"))
                .add("text", Json.createObjectBuilder().add("format", Json.createObjectBuilder().add("type", "text")))
                .add("tool_choice", "auto").add("tools", Json.createArrayBuilder())
                .add("top_p", new BigDecimal("1.0")).add("truncation", "disabled");
        if (usage == null) {
            response.addNull("usage");
        } else {
            response.add("usage", usage.json());
        }
        return response.addNull("user").add("metadata", Json.createObjectBuilder());
    }

    private static JsonObjectBuilder messageItem(Message message, String status, String text) {
        JsonArrayBuilder content = Json.createArrayBuilder();
        if (!text.isEmpty() || status.equals("completed")) {
            content.add(textPart(text));
        }
        return Json.createObjectBuilder().add("id", message.id()).add("type", "message").add("status", status)
                .add("content", content).add("role", "assistant");
    }

    private static JsonObjectBuilder textPart(String text) {
        return Json.createObjectBuilder().add("type", "output_text").add("annotations", Json.createArrayBuilder())
                .add("logprobs", Json.createArrayBuilder()).add("text", text);
    }

    private static JsonObjectBuilder callItem(FunctionCall call, String status, String arguments) {
        return Json.createObjectBuilder().add("id", call.id()).add("type", "function_call").add("status", status)
                .add("arguments", arguments).add("call_id", call.callId()).add("name", call.name());
    }

    /** Text cut as a model streams it: a word and the space after it at a time. */
    private static List<String> pieces(String text) {
        List<String> pieces = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) == ' ') {
                pieces.add(text.substring(start, i + 1));
                start = i + 1;
            }
        }
        if (start < text.length()) {
            pieces.add(text.substring(start));
        }
        return pieces;
    }

    /** Events numbered as they are added. */
    private static final class Events {
        final List<String> list = new ArrayList<>();

        void add(String type, JsonObjectBuilder members) {
            JsonObject data = Json.createObjectBuilder().add("type", type).add("sequence_number", list.size())
                    .addAll(members).build();
            list.add("event: " + type + "\ndata: " + data + "\n\n");
        }
    }
}
