package io.aigw.tck;

import jakarta.json.JsonValue;

/** How a failure message names a JSON value: its type, and the value when it is short. */
final class Describe {

    private Describe() {
    }

    static String value(JsonValue value) {
        return switch (value.getValueType()) {
            case STRING -> "the string " + value;
            case NUMBER -> "the number " + value;
            case TRUE, FALSE -> value.toString();
            case NULL -> "null";
            case ARRAY -> "an array";
            case OBJECT -> "an object";
        };
    }
}
