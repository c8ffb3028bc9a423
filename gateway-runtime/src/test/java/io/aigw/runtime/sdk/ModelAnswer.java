package io.aigw.runtime.sdk;

import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import java.util.ArrayList;
import java.util.List;
import mockwebserver3.MockResponse;

/**
 * One answer of a fake model on the Responses API, holding one output item (a function call or a
 * text message), as OpenAI sends it: a whole {@code response} object, or the {@code response.*}
 * events of a stream, ending in {@code response.completed} with the usage.
 */
record ModelAnswer(String id, JsonObject item, Usage usage) {
    private static final String MODEL = "gpt-5-2025-08-07";

    /** The tokens an answer reports. */
    record Usage(int input, int cached, int output, int reasoning) {
        JsonObject json() {
            return Json.createObjectBuilder().add("input_tokens", input)
                    .add("input_tokens_details", Json.createObjectBuilder().add("cached_tokens", cached))
                    .add("output_tokens", output)
                    .add("output_tokens_details", Json.createObjectBuilder().add("reasoning_tokens", reasoning))
                    .add("total_tokens", input + output).build();
        }
    }

    /** The model asks for {@code name} to be called with {@code arguments} (a JSON text). */
    static ModelAnswer functionCall(String id, String callId, String name, String arguments, Usage usage) {
        return new ModelAnswer(id, Json.createObjectBuilder().add("type", "function_call").add("id", "fc_" + id)
                .add("call_id", callId).add("name", name).add("arguments", arguments).add("status", "completed")
                .build(), usage);
    }

    /** The model answers {@code text}. */
    static ModelAnswer text(String id, String text, Usage usage) {
        return new ModelAnswer(id, Json.createObjectBuilder().add("type", "message").add("id", "msg_" + id)
                .add("role", "assistant").add("status", "completed").add("content", Json.createArrayBuilder()
                        .add(Json.createObjectBuilder().add("type", "output_text").add("text", text)
                                .add("annotations", Json.createArrayBuilder())))
                .build(), usage);
    }

    /** The answer sent whole ({@code stream: false}). */
    MockResponse whole() {
        return new MockResponse.Builder().addHeader("Content-Type", "application/json")
                .body(response("completed", true).toString()).build();
    }

    /** The answer as a stream of events ({@code stream: true}). */
    MockResponse streamed() {
        return new MockResponse.Builder().addHeader("Content-Type", "text/event-stream").body(events()).build();
    }

    private String events() {
        List<String> events = new ArrayList<>();
        Events stream = new Events(events);
        stream.add("response.created", Json.createObjectBuilder().add("response", response("in_progress", false)));
        boolean message = item.getString("type").equals("message");
        JsonObjectBuilder started = Json.createObjectBuilder(item).add("status", "in_progress");
        stream.add("response.output_item.added", Json.createObjectBuilder().add("output_index", 0).add("item",
                message ? started.add("content", Json.createArrayBuilder()) : started.add("arguments", "")));
        if (message) {
            String text = item.getJsonArray("content").getJsonObject(0).getString("text");
            stream.add("response.output_text.delta", itemEvent().add("content_index", 0).add("delta", text));
            stream.add("response.output_text.done", itemEvent().add("content_index", 0).add("text", text));
        } else {
            String arguments = item.getString("arguments");
            stream.add("response.function_call_arguments.delta", itemEvent().add("delta", arguments));
            stream.add("response.function_call_arguments.done", itemEvent().add("arguments", arguments));
        }
        stream.add("response.output_item.done", Json.createObjectBuilder().add("output_index", 0).add("item", item));
        stream.add("response.completed", Json.createObjectBuilder().add("response", response("completed", true)));
        return String.join("", events);
    }

    private JsonObjectBuilder itemEvent() {
        return Json.createObjectBuilder().add("item_id", item.getString("id")).add("output_index", 0);
    }

    private JsonObject response(String status, boolean done) {
        JsonObjectBuilder response = Json.createObjectBuilder().add("id", id).add("object", "response")
                .add("created_at", 1_700_000_000).add("status", status).add("model", MODEL)
                .add("output", done ? Json.createArrayBuilder().add(item) : Json.createArrayBuilder());
        return (done ? response.add("usage", usage.json()) : response.addNull("usage")).build();
    }

    /** Numbers the events of one stream as OpenAI does ({@code sequence_number}). */
    private record Events(List<String> lines) {
        void add(String type, JsonObjectBuilder event) {
            lines.add("event: " + type + "\ndata: " + event.add("type", type).add("sequence_number", lines.size())
                    .build() + "\n\n");
        }
    }
}
