package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ConfigurationException;
import jakarta.json.Json;
import jakarta.json.JsonArray;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.List;

/** Reads a plugin's model catalogue resource: a JSON array of {@code {id, name, context_length, owned_by}}. */
final class CatalogueReader {

    private CatalogueReader() {
    }

    static List<ModelEntry> read(URL resource, String source) {
        try (InputStream in = resource.openStream(); JsonReader reader = Json.createReader(in)) {
            JsonArray array = reader.readArray();
            return array.stream().map(value -> entry(value, source)).toList();
        } catch (IOException | JsonException | ClassCastException | NullPointerException | ArithmeticException e) {
            // ArithmeticException: a context_length that is not a whole number, such as 128000.5.
            throw new ConfigurationException("The model catalogue of " + source + " (" + resource
                    + ") is not a JSON array of {id, name, context_length, owned_by}: " + e.getMessage());
        }
    }

    private static ModelEntry entry(JsonValue value, String source) {
        JsonObject model = value.asJsonObject();
        String id = model.getString("id");
        return new ModelEntry(id, model.getString("name", id),
                model.getJsonNumber("context_length").longValueExact(), model.getString("owned_by", source));
    }
}
