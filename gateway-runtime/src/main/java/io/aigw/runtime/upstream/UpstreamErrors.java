package io.aigw.runtime.upstream;

import io.aigw.runtime.error.ApiError;
import io.aigw.runtime.error.Jsons;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Brings an upstream's error body into the OpenAI shape. A body already in that shape is kept to
 * the byte; Gemini's array-wrapped errors, numeric codes (Gemini, OpenRouter) and bodies that are
 * not JSON at all (a proxy's HTML page) are rewritten, keeping the upstream's message.
 */
final class UpstreamErrors {

    private UpstreamErrors() {
    }

    /** Returns the OpenAI-shaped error body for an upstream answer with a 4xx/5xx status. */
    static byte[] normalize(int status, byte[] body, String provider) {
        JsonValue parsed = parse(body);
        boolean wrapped = parsed != null && parsed.getValueType() == JsonValue.ValueType.ARRAY;
        if (wrapped && !parsed.asJsonArray().isEmpty()) {
            parsed = parsed.asJsonArray().get(0);
        }
        if (parsed == null || parsed.getValueType() != JsonValue.ValueType.OBJECT
                || !(parsed.asJsonObject().get("error") instanceof JsonObject error)) {
            return ApiError.toJson(messageFromText(status, body, provider), typeFor(status), null, null);
        }
        if (isOpenAiShaped(error) && !wrapped) {
            return body;
        }
        String message = error.get("message") instanceof JsonString text ? text.getString()
                : "Upstream " + provider + " answered " + status + ".";
        String type = error.get("type") instanceof JsonString text ? text.getString() : typeFor(status);
        String param = error.get("param") instanceof JsonString text ? text.getString() : null;
        return ApiError.toJson(message, type, param, code(error));
    }

    /** Returns the message of an OpenAI-shaped error body, for lists of what failed. */
    static String message(byte[] normalized) {
        JsonValue parsed = parse(normalized);
        if (parsed instanceof JsonObject object && object.get("error") instanceof JsonObject error
                && error.get("message") instanceof JsonString text) {
            return text.getString();
        }
        return "";
    }

    /** Returns an OpenAI-shaped error body with its message replaced; type, param and code are kept. */
    static byte[] withMessage(byte[] normalized, String message) {
        JsonObject error = ((JsonObject) parse(normalized)).getJsonObject("error");
        return ApiError.toJson(message, stringOrNull(error, "type"), stringOrNull(error, "param"),
                stringOrNull(error, "code"));
    }

    private static String stringOrNull(JsonObject object, String name) {
        return object.get(name) instanceof JsonString text ? text.getString() : null;
    }

    private static boolean isOpenAiShaped(JsonObject error) {
        return error.get("message") instanceof JsonString
                && nullOrString(error.get("type")) && nullOrString(error.get("param"))
                && nullOrString(error.get("code"));
    }

    private static boolean nullOrString(JsonValue value) {
        return value == null || value == JsonValue.NULL || value instanceof JsonString;
    }

    /** A string code is kept; a numeric one is replaced by the upstream's textual status, if any. */
    private static String code(JsonObject error) {
        if (error.get("code") instanceof JsonString text) {
            return text.getString();
        }
        if (error.get("status") instanceof JsonString status) {
            return status.getString().toLowerCase(Locale.ROOT);
        }
        return null;
    }

    private static String typeFor(int status) {
        return switch (status) {
            case 400, 404, 409, 413, 415, 422 -> "invalid_request_error";
            case 401 -> "authentication_error";
            case 403 -> "permission_error";
            case 429 -> "rate_limit_error";
            default -> status >= 500 ? "server_error" : "upstream_error";
        };
    }

    private static String messageFromText(int status, byte[] body, String provider) {
        String text = new String(body, 0, Math.min(body.length, 300), StandardCharsets.UTF_8).strip();
        return "Upstream " + provider + " answered " + status + (text.isEmpty() ? "." : ": " + text);
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
