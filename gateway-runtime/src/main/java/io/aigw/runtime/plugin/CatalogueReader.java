package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.error.Jsons;
import jakarta.json.JsonException;
import jakarta.json.bind.JsonbException;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a plugin's model catalogue resource with JSON-B: a JSON array of
 * {@code {"id", "name", "context_length", "owned_by"}}. {@code id} and {@code context_length} (a
 * whole number) are required; {@code name} defaults to the id and {@code owned_by} to the plugin.
 * Other members are ignored.
 */
final class CatalogueReader {

    private CatalogueReader() {
    }

    /** One entry as the resource writes it; a member it leaves out is null. */
    public record CatalogueEntry(String id, String name, Long contextLength, String ownedBy) {
    }

    static List<ModelEntry> read(URL resource, String source) {
        CatalogueEntry[] entries;
        try (InputStream in = resource.openStream()) {
            entries = Jsons.BINDING.fromJson(in, CatalogueEntry[].class);
        } catch (IOException | JsonException e) {
            throw refused(resource, source, e.getMessage());
        } catch (JsonbException e) {
            JsonException syntax = notJson(e);
            throw refused(resource, source, syntax != null ? "it is not JSON: " + syntax.getMessage() : e.getMessage());
        }
        if (entries == null) {
            throw refused(resource, source, "it is null");
        }
        List<ModelEntry> models = new ArrayList<>(entries.length);
        for (int i = 0; i < entries.length; i++) {
            CatalogueEntry entry = entries[i];
            if (entry == null || entry.id() == null || entry.contextLength() == null) {
                throw refused(resource, source, "entry " + (i + 1) + " has no '"
                        + (entry == null || entry.id() == null ? "id" : "context_length") + "'");
            }
            models.add(new ModelEntry(entry.id(), entry.name() != null ? entry.name() : entry.id(),
                    entry.contextLength(), entry.ownedBy() != null ? entry.ownedBy() : source));
        }
        return List.copyOf(models);
    }

    /** The parser's complaint that JSON-B wrapped, if the resource is not JSON at all; else null. */
    private static JsonException notJson(JsonbException failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof JsonException syntax) {
                return syntax;
            }
        }
        return null;
    }

    private static ConfigurationException refused(URL resource, String source, String why) {
        return new ConfigurationException("The model catalogue of " + source + " (" + resource
                + ") is not a JSON array of {id, name, context_length, owned_by}: " + why);
    }
}
