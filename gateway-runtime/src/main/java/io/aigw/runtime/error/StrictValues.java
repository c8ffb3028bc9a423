package io.aigw.runtime.error;

import jakarta.json.JsonNumber;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.bind.JsonbException;
import jakarta.json.bind.serializer.DeserializationContext;
import jakarta.json.bind.serializer.JsonbDeserializer;
import jakarta.json.stream.JsonParser;
import java.lang.reflect.Type;

/**
 * How {@link Jsons#BINDING} reads {@code String}, {@code Long} and {@code Boolean} components. Yasson
 * alone reads {@code 42} or {@code true} into a string, cuts {@code 1000.5} to a long and takes
 * {@code "yes"} for false; a document with such
 * a value is a mistake its author should hear about, so these refuse it.
 * A JSON {@code null} reads as null.
 */
final class StrictValues {

    private StrictValues() {
    }

    static final class Text implements JsonbDeserializer<String> {
        @Override
        public String deserialize(JsonParser parser, DeserializationContext context, Type type) {
            JsonValue value = parser.getValue();
            if (value instanceof JsonString text) {
                return text.getString();
            }
            if (value.getValueType() == JsonValue.ValueType.NULL) {
                return null;
            }
            throw wrongType("a string", value);
        }
    }

    static final class Truth implements JsonbDeserializer<Boolean> {
        @Override
        public Boolean deserialize(JsonParser parser, DeserializationContext context, Type type) {
            JsonValue value = parser.getValue();
            return switch (value.getValueType()) {
                case TRUE -> true;
                case FALSE -> false;
                case NULL -> null;
                default -> throw wrongType("true or false", value);
            };
        }
    }

    static final class WholeNumber implements JsonbDeserializer<Long> {
        @Override
        public Long deserialize(JsonParser parser, DeserializationContext context, Type type) {
            JsonValue value = parser.getValue();
            if (value instanceof JsonNumber number && number.isIntegral()) {
                try {
                    return number.longValueExact();
                } catch (ArithmeticException e) {
                    throw wrongType("a whole number within 64 bits", value);
                }
            }
            if (value.getValueType() == JsonValue.ValueType.NULL) {
                return null;
            }
            throw wrongType("a whole number", value);
        }
    }

    /** Shows a scalar as it was written ({@code 1000.5}, {@code "1000"}), a structure by its kind. */
    private static JsonbException wrongType(String expected, JsonValue found) {
        String shown = switch (found.getValueType()) {
            case OBJECT -> "an object";
            case ARRAY -> "an array";
            default -> found.toString();
        };
        return new JsonbException("Expected " + expected + ", found " + shown + ".");
    }
}
