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
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The model catalogue against its documented format: UTF-8 JSON, an array of objects with a string
 * {@code id}, a string {@code name}, a positive whole number {@code context_length}, a string
 * {@code owned_by}, an optional positive whole number {@code max_output_tokens}, an optional
 * {@code kind} ({@code "chat"} or {@code "embedding"}) and an optional {@code pricing}
 * ({@link PricingRules}); or an object holding that
 * array as {@code models}, with an optional {@code prices_as_of} (a day, {@code yyyy-mm-dd}) and
 * {@code prices_source} (a non-blank string). Other fields are allowed, for later versions of the
 * format.
 */
final class CatalogueRules {
    private static final List<String> TEXT_FIELDS = List.of("id", "name", "owned_by");
    private static final List<String> KINDS = List.of("chat", "embedding");

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
            problems.addAll(problems(first.get(), descriptor));
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

    /** Every problem of a catalogue's content, for the plugin it belongs to. */
    static List<String> problems(byte[] content, ProviderDescriptor descriptor) {
        List<String> problems = new ArrayList<>();
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(content)).toString();
        } catch (CharacterCodingException e) {
            problems.add("the catalogue is not UTF-8");
            return problems;
        }
        JsonValue catalogue;
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            catalogue = reader.readValue();
        } catch (JsonParsingException e) {
            problems.add("the catalogue is not JSON: " + e.getMessage());
            return problems;
        }
        if (catalogue instanceof JsonObject object) {
            catalogue = pricedCatalogue(object, problems);
        }
        if (catalogue instanceof JsonArray models) {
            entries(models, descriptor, problems);
        } else if (catalogue != null) {
            problems.add("the catalogue must be a JSON array of models, or an object {prices_as_of, prices_source,"
                    + " models}, not " + Describe.value(catalogue));
        }
        return problems;
    }

    /** The models of the object form, checking what it says of its prices; null where it has none. */
    private static JsonValue pricedCatalogue(JsonObject catalogue, List<String> problems) {
        JsonValue asOf = catalogue.get("prices_as_of");
        if (asOf != null && !(asOf instanceof JsonString day && isDay(day.getString()))) {
            problems.add("'prices_as_of' must be the day the prices were taken, yyyy-mm-dd, not "
                    + Describe.value(asOf));
        }
        JsonValue source = catalogue.get("prices_source");
        if (source != null && !(source instanceof JsonString text && !text.getString().isBlank())) {
            problems.add("'prices_source' must be a non-blank string saying where the prices come from, not "
                    + Describe.value(source));
        }
        JsonValue models = catalogue.get("models");
        if (models == null) {
            problems.add("the catalogue object has no 'models', the array of models");
        } else if (!(models instanceof JsonArray)) {
            problems.add("'models' must be a JSON array of models, not " + Describe.value(models));
            return null;
        }
        return models;
    }

    private static boolean isDay(String text) {
        try {
            LocalDate.parse(text);
            return true;
        } catch (DateTimeParseException e) {
            return false;
        }
    }

    private static void entries(JsonArray models, ProviderDescriptor descriptor, List<String> problems) {
        Map<String, Integer> firstEntryOfId = new HashMap<>();
        for (int index = 0; index < models.size(); index++) {
            int number = index + 1;
            if (!(models.get(index) instanceof JsonObject model)) {
                problems.add("entry " + number + " must be an object {id, name, context_length, owned_by, pricing},"
                        + " not " + Describe.value(models.get(index)));
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
                problems.add(entry + ": '" + field + "' must be a non-blank string, not " + Describe.value(value));
            }
        }
        JsonValue contextLength = model.get("context_length");
        if (contextLength == null) {
            problems.add(entry + " has no 'context_length'");
        } else if (!(contextLength instanceof JsonNumber tokens) || !tokens.isIntegral()
                || tokens.bigDecimalValue().signum() <= 0 || tokens.bigIntegerValue().bitLength() >= Long.SIZE) {
            problems.add(entry + ": 'context_length' must be a positive whole number of tokens, not "
                    + Describe.value(contextLength));
        }
        JsonValue outputCap = model.get("max_output_tokens");
        if (outputCap != null && (!(outputCap instanceof JsonNumber tokens) || !tokens.isIntegral()
                || tokens.bigDecimalValue().signum() <= 0 || tokens.bigIntegerValue().bitLength() >= Long.SIZE)) {
            problems.add(entry + ": 'max_output_tokens' must be a positive whole number of tokens, not "
                    + Describe.value(outputCap));
        }
        JsonValue kind = model.get("kind");
        if (kind != null && !KINDS.contains(kind instanceof JsonString text ? text.getString() : "")) {
            problems.add(entry + ": 'kind' must be \"chat\" or \"embedding\", not " + Describe.value(kind));
        }
        boolean embedding = kind instanceof JsonString text && text.getString().equals("embedding");
        PricingRules.check(model.get("pricing"), entry, embedding, problems);
    }
}
