package io.aigw.tck;

import io.aigw.spi.ProviderDescriptor;
import jakarta.json.Json;
import jakarta.json.JsonObject;
import jakarta.json.JsonObjectBuilder;
import jakarta.json.JsonReader;
import jakarta.json.JsonValue;
import java.io.IOException;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import mockwebserver3.MockResponse;
import mockwebserver3.MockWebServer;
import mockwebserver3.RecordedRequest;

/**
 * One chat completion through a real gateway serving the plugin alone, to a fake upstream on
 * loopback, and what the upstream received: the model id, the headers, the body.
 */
final class RoundTrip {
    static final String UPSTREAM_KEY = "tck-upstream-key-7d3e9a";
    static final String CALLER_KEY = "sk-gw-tck-caller-key-0123456789abcdef";
    /** Fields the gateway reads itself; they are never sent as stand-ins for unsupported fields. */
    private static final Set<String> GATEWAY_FIELDS = Set.of("model", "messages", "stream");

    private final PluginUnderTest plugin;
    private final ProviderDescriptor descriptor;
    private final Set<String> unsupported;
    private final Map<String, String> extraHeaders;

    RoundTrip(PluginUnderTest plugin, ProviderDescriptor descriptor) {
        this.plugin = plugin;
        this.descriptor = descriptor;
        this.unsupported = declared(() -> plugin.instance().unsupportedFields(), Set.of());
        this.extraHeaders = declared(() -> plugin.instance().extraHeaders(), Map.of());
    }

    /**
     * Asks for the default model by the id a caller writes: the upstream must receive it with the
     * prefix stripped or kept, as the plugin declares.
     */
    List<String> byModelId() {
        String model = descriptor.defaultModel();
        boolean reachesAsIs = descriptor.catchAll() || model.startsWith(descriptor.prefix() + "/");
        String asked = descriptor.stripsPrefix() || !reachesAsIs ? descriptor.prefix() + "/" + model : model;
        return exchange(asked, descriptor.stripsPrefix() ? asked.substring(descriptor.prefix().length() + 1) : asked);
    }

    /** Asks for {@code gateway/auto}: the upstream must receive the plugin's default model. */
    List<String> byGatewayAuto() {
        return exchange("gateway/auto", descriptor.defaultModel());
    }

    private List<String> exchange(String model, String expectedModel) {
        String asked = "a request for '" + model + "'";
        String basePath = descriptor.baseUrl().getRawPath() == null ? "" : descriptor.baseUrl().getRawPath();
        basePath = basePath.endsWith("/") ? basePath.substring(0, basePath.length() - 1) : basePath;
        JsonObject sent = request(model);
        String answer = answer(expectedModel);
        List<String> problems = new ArrayList<>();
        try (MockWebServer upstream = new MockWebServer()) {
            upstream.start(InetAddress.getLoopbackAddress(), 0);
            upstream.enqueue(new MockResponse.Builder().code(200).addHeader("Content-Type", "application/json")
                    .body(answer).build());
            URI upstreamUrl = URI.create("http://127.0.0.1:" + upstream.getPort() + basePath);
            Optional<HttpResponse<String>> answered = throughGateway(upstreamUrl, sent, problems);
            if (answered.isEmpty()) {
                return problems;
            }
            HttpResponse<String> response = answered.get();
            if (upstream.getRequestCount() == 0) {
                problems.add("nothing reached the fake upstream at " + upstreamUrl + " for " + asked
                        + "; the gateway answered " + response.statusCode() + " " + response.body());
                return problems;
            }
            RecordedRequest received = upstream.takeRequest();
            String target = "POST " + basePath + "/chat/completions";
            if (!received.getRequestLine().startsWith(target + " ")) {
                problems.add("for " + asked + " the upstream received '" + received.getRequestLine() + "', not '"
                        + target + "'");
            }
            body(received, sent, expectedModel, asked, problems);
            headers(received, asked, problems);
            relayed(response, answer, asked, problems);
            return problems;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Starts a gateway for the plugin and sends the request as a caller; empty when the gateway does not start. */
    private Optional<HttpResponse<String>> throughGateway(URI upstreamUrl, JsonObject sent, List<String> problems)
            throws IOException, InterruptedException {
        EmbeddedGateway gateway;
        try {
            gateway = EmbeddedGateway.start(plugin.another(), descriptor.prefix(), upstreamUrl, UPSTREAM_KEY,
                    CALLER_KEY);
        } catch (RuntimeException e) {
            problems.add("the gateway does not start with this plugin: " + e.getMessage());
            return Optional.empty();
        }
        try (gateway) {
            return Optional.of(post(gateway.uri("/api/v1/chat/completions"), sent.toString()));
        }
    }

    /** The upstream's answer must come back to the caller as it was sent, naming the provider. */
    private void relayed(HttpResponse<String> response, String answer, String asked, List<String> problems) {
        if (response.statusCode() != 200 || !response.body().equals(answer)) {
            problems.add("for " + asked + " the gateway answered " + response.statusCode() + " " + response.body()
                    + ", not the upstream's 200 " + answer);
        }
        Optional<String> provider = response.headers().firstValue("X-Gateway-Provider");
        if (!provider.equals(Optional.of(descriptor.prefix()))) {
            problems.add("for " + asked + " the gateway's X-Gateway-Provider is " + provider.orElse("missing")
                    + ", not " + descriptor.prefix());
        }
    }

    /** A request with a field the plugin keeps and each field it declares unsupported. */
    private JsonObject request(String model) {
        JsonObjectBuilder body = Json.createObjectBuilder()
                .add("model", model)
                .add("messages", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("role", "user").add("content", "ping")))
                .add("temperature", 0.5);
        unsupported.stream().filter(field -> field != null && !GATEWAY_FIELDS.contains(field))
                .forEach(field -> body.add(field, JsonValue.EMPTY_JSON_OBJECT));
        return body.build();
    }

    private void body(RecordedRequest received, JsonObject sent, String expectedModel, String asked,
                      List<String> problems) {
        String text = received.getBody() == null ? "" : received.getBody().utf8();
        JsonObject forwarded;
        try (JsonReader reader = Json.createReader(new StringReader(text))) {
            forwarded = reader.readObject();
        } catch (RuntimeException e) {
            problems.add("for " + asked + " the upstream received a body that is not a JSON object: " + text);
            return;
        }
        JsonValue model = forwarded.get("model");
        if (model == null) {
            problems.add("for " + asked + " the upstream received no 'model'");
        } else if (!Json.createValue(expectedModel).equals(model)) {
            problems.add("for " + asked + " the upstream was asked for " + model + ", not \"" + expectedModel + "\" ("
                    + (descriptor.stripsPrefix() ? "this plugin strips its prefix" : "this plugin keeps its prefix")
                    + ")");
        }
        for (Map.Entry<String, JsonValue> field : sent.entrySet()) {
            String name = field.getKey();
            if (unsupported.contains(name) && !GATEWAY_FIELDS.contains(name) && forwarded.containsKey(name)) {
                problems.add("for " + asked + " the field '" + name + "', which unsupportedFields() names, reached"
                        + " the upstream");
            } else if (!unsupported.contains(name) && !name.equals("model")
                    && !field.getValue().equals(forwarded.get(name))) {
                problems.add("for " + asked + " the field '" + name + "' reached the upstream as "
                        + forwarded.get(name) + ", not as sent, " + field.getValue());
            }
        }
        if (text.contains(CALLER_KEY)) {
            problems.add("for " + asked + " the caller's workspace key reached the upstream in the body");
        }
    }

    private void headers(RecordedRequest received, String asked, List<String> problems) {
        List<String> authorization = received.getHeaders().values("Authorization");
        if (!authorization.equals(List.of("Bearer " + UPSTREAM_KEY))) {
            problems.add("for " + asked + " the upstream received Authorization " + authorization + ", not the one"
                    + " value 'Bearer " + UPSTREAM_KEY + "' (the key configured as providers." + descriptor.prefix()
                    + ".api-key)");
        }
        for (Map.Entry<String, String> header : extraHeaders.entrySet()) {
            List<String> values = received.getHeaders().values(header.getKey());
            if (!header.getKey().equalsIgnoreCase("Authorization") && !values.equals(List.of(header.getValue()))) {
                problems.add("for " + asked + " the extra header " + header.getKey() + " reached the upstream as "
                        + values + ", not as declared, '" + header.getValue() + "'");
            }
        }
        for (String name : received.getHeaders().names()) {
            if (received.getHeaders().values(name).stream().anyMatch(value -> value.contains(CALLER_KEY))) {
                problems.add("for " + asked + " the caller's workspace key reached the upstream in " + name);
            }
        }
    }

    /**
     * A hook's value, or {@code otherwise} when the hook fails: the hook's own check reports that,
     * and the gateway does not start with such a plugin, which the exchange reports.
     */
    private static <T> T declared(Supplier<T> hook, T otherwise) {
        try {
            T value = hook.get();
            return value == null ? otherwise : value;
        } catch (RuntimeException | LinkageError e) {
            return otherwise;
        }
    }

    private static HttpResponse<String> post(URI uri, String body) throws IOException, InterruptedException {
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            return client.send(HttpRequest.newBuilder(uri)
                    .header("Authorization", "Bearer " + CALLER_KEY)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(body))
                    .build(), HttpResponse.BodyHandlers.ofString());
        }
    }

    /** A chat completion as an OpenAI-compatible upstream answers, naming the model it was asked for. */
    private static String answer(String model) {
        return Json.createObjectBuilder()
                .add("id", "chatcmpl-tck")
                .add("object", "chat.completion")
                .add("created", 1700000000)
                .add("model", model)
                .add("choices", Json.createArrayBuilder().add(Json.createObjectBuilder()
                        .add("index", 0)
                        .add("message", Json.createObjectBuilder().add("role", "assistant").add("content", "pong"))
                        .add("finish_reason", "stop")))
                .add("usage", Json.createObjectBuilder()
                        .add("prompt_tokens", 1).add("completion_tokens", 1).add("total_tokens", 2))
                .build().toString();
    }
}
