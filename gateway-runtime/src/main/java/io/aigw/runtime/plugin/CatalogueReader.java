package io.aigw.runtime.plugin;

import io.aigw.runtime.config.ConfigurationException;
import io.aigw.runtime.config.ModelKind;
import io.aigw.runtime.error.Jsons;
import io.aigw.runtime.pricing.ModelPrice;
import io.aigw.runtime.pricing.PriceJson;
import jakarta.json.JsonException;
import jakarta.json.JsonValue;
import jakarta.json.bind.JsonbException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.time.Instant;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Reads a plugin's model catalogue resource with JSON-B: a JSON array of
 * {@code {"id", "name", "context_length", "max_output_tokens", "owned_by", "kind", "pricing"}}, or an
 * object {@code {"prices_as_of", "prices_source", "models"}} holding that array. {@code id} and
 * {@code context_length} (a whole number) are required; {@code max_output_tokens} (a whole number
 * above 0) is optional, as before it was read; {@code name} defaults to the id,
 * {@code owned_by} to the plugin, {@code kind} to {@code chat} (an {@code embedding} model's
 * {@code pricing} may leave out {@code output}), and a model without {@code pricing} has no price. Other members are
 * ignored, but not inside {@code pricing} ({@link PriceJson}).
 */
final class CatalogueReader {

    private CatalogueReader() {
    }

    /** One entry as the resource writes it; a member it leaves out is null. */
    public record CatalogueEntry(String id, String name, Long contextLength, Long maxOutputTokens, String ownedBy,
                                 String kind, JsonValue pricing) {
    }

    /** The object form, which says where and when its prices come from; a member it leaves out is null. */
    public record PricedCatalogue(String pricesAsOf, String pricesSource, CatalogueEntry[] models) {
    }

    /**
     * A catalogue as read.
     *
     * @param pricesAsOf   the day its prices were taken from their source, where it says
     * @param pricesSource where its prices come from (the provider's price page), where it says
     * @param built        when the resource was made, where its jar or file says: in a jar, the
     *                     time of its entry, which the build that packed the jar wrote
     */
    record Catalogue(List<ModelEntry> models, Optional<LocalDate> pricesAsOf, Optional<String> pricesSource,
                     Optional<Instant> built) {
    }

    static Catalogue read(URL resource, String source) {
        byte[] content;
        Optional<Instant> built;
        try {
            URLConnection connection = resource.openConnection();
            try (InputStream in = connection.getInputStream()) {
                content = in.readAllBytes();
                // Asked while the stream is open: a jar's entry is then read from the jar file the
                // stream holds, which closing the stream closes.
                built = built(connection);
            }
        } catch (IOException e) {
            throw refused(resource, source, e.getMessage());
        }
        try {
            if (isObject(content)) {
                PricedCatalogue catalogue = Jsons.BINDING.fromJson(new ByteArrayInputStream(content),
                        PricedCatalogue.class);
                if (catalogue.models() == null) {
                    throw refused(resource, source, "the object has no 'models'");
                }
                return new Catalogue(models(catalogue.models(), resource, source),
                        asOf(catalogue.pricesAsOf(), resource, source),
                        sourceOfPrices(catalogue.pricesSource(), resource, source), built);
            }
            CatalogueEntry[] entries = Jsons.BINDING.fromJson(new ByteArrayInputStream(content),
                    CatalogueEntry[].class);
            if (entries == null) {
                throw refused(resource, source, "it is null");
            }
            return new Catalogue(models(entries, resource, source), Optional.empty(), Optional.empty(), built);
        } catch (JsonException e) {
            throw refused(resource, source, e.getMessage());
        } catch (JsonbException e) {
            JsonException syntax = notJson(e);
            throw refused(resource, source, syntax != null ? "it is not JSON: " + syntax.getMessage() : e.getMessage());
        }
    }

    private static List<ModelEntry> models(CatalogueEntry[] entries, URL resource, String source) {
        List<ModelEntry> models = new ArrayList<>(entries.length);
        for (int i = 0; i < entries.length; i++) {
            CatalogueEntry entry = entries[i];
            if (entry == null || entry.id() == null || entry.contextLength() == null) {
                throw refused(resource, source, "entry " + (i + 1) + " has no '"
                        + (entry == null || entry.id() == null ? "id" : "context_length") + "'");
            }
            Optional<ModelKind> kind = entry.kind() == null ? Optional.of(ModelKind.CHAT)
                    : ModelKind.named(entry.kind());
            if (kind.isEmpty()) {
                throw refused(resource, source, "entry " + (i + 1) + " ('" + entry.id() + "'): " + ModelKind.RULE
                        + ", not \"" + entry.kind() + "\"");
            }
            Optional<ModelPrice> price;
            try {
                price = entry.pricing() == null || entry.pricing().getValueType() == JsonValue.ValueType.NULL
                        ? Optional.empty() : Optional.of(PriceJson.read(entry.pricing(), PriceJson.Spelling.SNAKE_CASE,
                        kind.get() == ModelKind.EMBEDDING));
            } catch (IllegalArgumentException e) {
                throw refused(resource, source, "entry " + (i + 1) + " ('" + entry.id() + "'): 'pricing': "
                        + e.getMessage());
            }
            if (entry.maxOutputTokens() != null && entry.maxOutputTokens() < 1) {
                throw refused(resource, source, "entry " + (i + 1) + " ('" + entry.id() + "'): 'max_output_tokens'"
                        + " must be a whole number above 0, not " + entry.maxOutputTokens());
            }
            models.add(new ModelEntry(entry.id(), entry.name() != null ? entry.name() : entry.id(),
                    entry.contextLength(), entry.ownedBy() != null ? entry.ownedBy() : source, price,
                    entry.maxOutputTokens() == null ? OptionalLong.empty() : OptionalLong.of(entry.maxOutputTokens()),
                    kind.get()));
        }
        return List.copyOf(models);
    }

    private static Optional<LocalDate> asOf(String date, URL resource, String source) {
        try {
            return Optional.ofNullable(date).map(LocalDate::parse);
        } catch (DateTimeParseException e) {
            throw refused(resource, source, "'prices_as_of' must be a day, yyyy-mm-dd, not '" + date + "'");
        }
    }

    private static Optional<String> sourceOfPrices(String text, URL resource, String source) {
        if (text != null && text.isBlank()) {
            throw refused(resource, source, "'prices_source' must say where the prices come from; it is blank");
        }
        return Optional.ofNullable(text);
    }

    private static Optional<Instant> built(URLConnection connection) throws IOException {
        long millis = connection instanceof JarURLConnection jar ? jar.getJarEntry().getTime()
                : connection.getLastModified();
        return millis > 0 ? Optional.of(Instant.ofEpochMilli(millis)) : Optional.empty();
    }

    /** Whether the first character that is not white space opens an object. */
    private static boolean isObject(byte[] content) {
        for (byte b : content) {
            if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                return b == '{';
            }
        }
        return false;
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
                + ") is neither a JSON array of models {id, name, context_length, owned_by, pricing} nor an object"
                + " {prices_as_of, prices_source, models}: " + why);
    }
}
