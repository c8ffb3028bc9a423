package io.aigw.runtime.catalogue;

import io.aigw.runtime.error.Jsons;
import io.aigw.runtime.plugin.Provider;
import io.aigw.runtime.plugin.UpstreamKey;
import io.aigw.spi.UpstreamApi;
import jakarta.json.JsonException;
import jakarta.json.JsonObject;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;

/**
 * Reads one provider's model list from its upstream: {@code GET <base URL>/models} with one of its
 * keys, as the OpenAI API and its compatible ones answer it ({@code {"data":[{"id":...}]}}). The key
 * goes as {@code Authorization: Bearer}, and as {@code x-api-key} too where the upstream serves
 * the Messages API, which takes it so; the provider's own headers go with it.
 */
final class ModelListFetch {
    /** A model list of an aggregator runs to a few hundred kilobytes; past this, it is not one. */
    private static final int MAX_BODY = 8 * 1024 * 1024;

    private final HttpClient client;
    private final Duration timeout;

    ModelListFetch(Duration connectTimeout, Duration timeout) {
        this.client = HttpClient.newBuilder().connectTimeout(connectTimeout)
                .followRedirects(HttpClient.Redirect.NEVER).build();
        this.timeout = timeout;
    }

    /**
     * The provider's list.
     *
     * @throws IOException saying in a few words why there is none: unreachable, a status, not a list
     */
    UpstreamModels fetch(Provider provider, UpstreamKey key) throws IOException, InterruptedException {
        String base = key.baseUrl().toString();
        URI url = URI.create((base.endsWith("/") ? base.substring(0, base.length() - 1) : base) + "/models");
        HttpRequest.Builder request = HttpRequest.newBuilder(url).timeout(timeout).GET()
                .header("Accept", "application/json")
                .header("Authorization", key.bearer());
        if (provider.serves(UpstreamApi.MESSAGES)) {
            request.header("x-api-key", key.value());
        }
        provider.headers().forEach(request::header);
        HttpResponse<String> answer = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        if (answer.statusCode() != 200) {
            throw new IOException("it answered " + answer.statusCode());
        }
        if (answer.body().length() > MAX_BODY) {
            throw new IOException("its answer is larger than a model list");
        }
        return new UpstreamModels(ids(answer.body()), Instant.now());
    }

    private static Set<String> ids(String body) throws IOException {
        try {
            JsonObject list = Jsons.PROVIDER.createReader(new StringReader(body)).readObject();
            Set<String> ids = new HashSet<>();
            for (JsonValue model : list.getJsonArray("data")) {
                if (model instanceof JsonObject entry && entry.get("id") instanceof JsonString id
                        && !id.getString().isBlank()) {
                    ids.add(id.getString());
                }
            }
            if (ids.isEmpty()) {
                throw new IOException("its answer lists no model");
            }
            return ids;
        } catch (JsonException | ClassCastException | NullPointerException e) {
            throw new IOException("its answer is not a model list ({\"data\":[{\"id\":...}]})");
        }
    }

    void close() {
        client.close();
    }
}
