package io.aigw.runtime.error;

import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;

/**
 * The shape an error body takes on the surface a caller asked through, so that its SDK raises the
 * error it should: OpenAI's under {@code /api/}, Anthropic's under {@code /anthropic/}. Errors are
 * made in OpenAI's shape ({@link ApiError}) and brought into Anthropic's where sent.
 */
public enum ErrorShape {
    /** {@code {"error":{"message","type","param","code"}}}: the shape errors are made in. */
    OPENAI,
    /**
     * {@code {"type":"error","error":{"type","message"},"request_id"}}, with the type Anthropic's
     * SDKs expect of the status; a body already in this shape (an Anthropic upstream's) is kept.
     */
    ANTHROPIC;

    private static final String ANTHROPIC_PATHS = "/anthropic/";

    /** The shape of errors answered on {@code path}. */
    public static ErrorShape forPath(String path) {
        return path.startsWith(ANTHROPIC_PATHS) ? ANTHROPIC : OPENAI;
    }

    /**
     * {@code body}, an error in OpenAI's shape or an upstream's own, in this shape.
     *
     * @param requestId the gateway's id of the request, which Anthropic's shape carries
     */
    public byte[] body(int status, byte[] body, String requestId) {
        if (this == OPENAI) {
            return body;
        }
        JsonValue parsed = parse(body);
        if (parsed instanceof JsonObject object && object.get("type") instanceof JsonString type
                && type.getString().equals("error") && object.get("error") instanceof JsonObject) {
            return body;
        }
        String message = parsed instanceof JsonObject object && object.get("error") instanceof JsonObject error
                && error.get("message") instanceof JsonString text ? text.getString()
                : new String(body, StandardCharsets.UTF_8);
        return anthropic(anthropicType(status), message, requestId);
    }

    /** An error body in Anthropic's shape; {@code requestId} null where there is none. */
    public static byte[] anthropic(String type, String message, String requestId) {
        var error = Jsons.PROVIDER.createObjectBuilder().add("type", type).add("message", message);
        var body = Jsons.PROVIDER.createObjectBuilder().add("type", "error").add("error", error);
        if (requestId != null) {
            body.add("request_id", requestId);
        }
        return body.build().toString().getBytes(StandardCharsets.UTF_8);
    }

    /** The error type Anthropic's API gives with {@code status}, which its SDKs map to their exceptions. */
    public static String anthropicType(int status) {
        return switch (status) {
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 404 -> "not_found_error";
            case 413 -> "request_too_large";
            case 429 -> "rate_limit_error";
            case 529 -> "overloaded_error";
            default -> status >= 500 ? "api_error" : "invalid_request_error";
        };
    }

    private static JsonValue parse(byte[] body) {
        if (body.length == 0) {
            return null;
        }
        try (JsonReader reader = Jsons.PROVIDER.createReader(new ByteArrayInputStream(body))) {
            return reader.readValue();
        } catch (JsonException | IllegalStateException e) {
            return null;
        }
    }
}
