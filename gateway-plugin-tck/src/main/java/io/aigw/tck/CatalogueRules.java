package io.aigw.tck;

import io.aigw.spi.ProviderDescriptor;
import io.aigw.spi.ProviderPlugin;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonNumber;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import jakarta.json.stream.JsonParsingException;
import java.io.IOException;
import java.io.InputStream;
import java.io.StringReader;
import java.net.URL;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The model catalogue against its documented format: a UTF-8 JSON array of objects with a string
 * {@code id}, a string {@code name}, a positive whole number {@code context_length} and a string
 * {@code owned_by}. Other fields are allowed, for later versions of the format.
 */
final class CatalogueRules {
    private static final List<String> TEXT_FIELDS = List.of("id", "name", "owned_by");

    private CatalogueRules() {
    }

    static List<String> check(PluginUnderTest plugin, ProviderDescriptor descriptor) {
        List<String> problems = new ArrayList<>();
        Optional<byte[]> first = read(plugin.instance(), problems);
        Optional<byte[]> again = read(plugin.another(), problems);
        if (problems.isEmpty() && !sameContent(first, again)) {
            problems.add("catalogue() gives another catalogue on a new instance: a plugin's catalogue is constant");
        }
        if (problems.isEmpty() && first.isPresent()) {
            entries(first.get(), descriptor, problems);
        }
        return problems;
    }

    private static Optional<byte[]> read(ProviderPlugin plugin, List<String> problems) {
        Optional<URL> resource;
        try {
            resource = plugin.catalogue();
        } catch (RuntimeException | LinkageError e) {
            problems.add("catalogue() throws " + e);
            return Optional.empty();
        }
        if (resource == null) {
            problems.add("catalogue() returned null; a plugin without a catalogue returns Optional.empty()");
            return Optional.empty();
        }
        if (resource.isEmpty()) {
            return Optional.empty();
        }
        try (InputStream in = resource.get().openStream()) {
            return Optional.of(in.readAllBytes());
        } catch (IOException e) {
            problems.add("catalogue() names " + resource.get() + ", which cannot be read: " + e);
            return Optional.empty();
        }
    }

    private static boolean sameContent(Optional<byte[]> first, Optional<byte[]> again) {
        return first.isPresent() == again.isPresent()
                && (first.isEmpty() || Arrays.equals(first.get(), again.get()));
    }

    private static void entries(byte[] content, ProviderDescriptor descriptor, List<String> problems) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(content)).toString();
        } catch (CharacterCodingException e) {
            problems.add("the catalogue is not UTF-8");
            return;
        }
        JsonValue catalogue;
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            catalogue = reader.readValue();
        } catch (JsonParsingException e) {
            problems.add("the catalogue is not JSON: " + e.getMessage());
            return;
        }
        if (!(catalogue instanceof JsonArray models)) {
            problems.add("the catalogue must be a JSON array of models, not " + describe(catalogue));
            return;
        }
        Map<String, Integer> firstEntryOfId = new HashMap<>();
        for (int index = 0; index < models.size(); index++) {
            int number = index + 1;
            if (!(models.get(index) instanceof JsonObject model)) {
                problems.add("entry " + number + " must be an object {id, name, context_length, owned_by}, not "
                        + describe(models.get(index)));
                continue;
            }
            String entry = model.get("id") instanceof JsonString id
                    ? "entry " + number + " ('" + id.getString() + "')" : "entry " + number;
            fields(model, entry, problems);
            if (model.get("id") instanceof JsonString id) {
                ModelIds.problem(id.getString(), descriptor).or(() -> ModelIds.unreachable(id.getString(), descriptor))
                        .ifPresent(problem -> problems.add(entry + ": the id " + problem));
                Integer earlier = firstEntryOfId.putIfAbsent(id.getString(), number);
                if (earlier != null) {
                    problems.add(entry + ": the id is also entry " + earlier + "'s; each model is listed once");
                }
            }
        }
    }

    private static void fields(JsonObject model, String entry, List<String> problems) {
        for (String field : TEXT_FIELDS) {
            JsonValue value = model.get(field);
            if (value == null) {
                problems.add(entry + " has no '" + field + "'");
            } else if (!(value instanceof JsonString text) || text.getString().isBlank()) {
                problems.add(entry + ": '" + field + "' must be a non-blank string, not " + describe(value));
            }
        }
        JsonValue contextLength = model.get("context_length");
        if (contextLength == null) {
            problems.add(entry + " has no 'context_length'");
        } else if (!(contextLength instanceof JsonNumber tokens) || !tokens.isIntegral()
                || tokens.bigDecimalValue().signum() <= 0 || tokens.bigIntegerValue().bitLength() >= Long.SIZE) {
            problems.add(entry + ": 'context_length' must be a positive whole number of tokens, not "
                    + describe(contextLength));
        }
    }

    /** A JSON value as a failure message names it: its type, and the value when it is short. */
    private static String describe(JsonValue value) {
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
